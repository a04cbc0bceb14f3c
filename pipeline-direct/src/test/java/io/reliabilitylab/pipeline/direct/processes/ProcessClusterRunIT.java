package io.reliabilitylab.pipeline.direct.processes;

import static io.reliabilitylab.pipeline.direct.RunRecordChecks.assertDuplicatedEventIds;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.flink.cluster.SharedProcessClusters;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct pipeline on a cluster of processes the lab starts (two JobManagers with ZooKeeper, two
 * TaskManagers, one cluster for the whole suite): the five failure classes' default variants, a
 * TaskManager SIGKILLed and one frozen past its heartbeat timeout, and the leading JobManager
 * SIGKILLed, the TaskManagers' source link frozen and delayed behind the lab's proxy, the source
 * database SIGKILLed under them, and the whole cluster cut off its ZooKeeper beyond the session
 * timeout — each proven fired and recovered, every check passed, and no process left once the lab
 * lets its cluster go.
 */
class ProcessClusterRunIT {

  private static final List<String> SCENARIOS =
      List.of(
          "task-failure",
          "task-failure:process-kill",
          "task-failure:process-pause",
          "jobmanager-failover",
          "coordinator-failure",
          "checkpoint-failure",
          "savepoint-restore",
          "sink-commit-failure",
          // the TaskManager processes reach the source through the lab's proxy in the lab's JVM
          "network-partition",
          "network-latency",
          // the source database SIGKILLed under the TaskManager processes' binlog reader
          "source-crash",
          // every process of the cluster reaches ZooKeeper through the lab's proxy
          "network-partition:zookeeper");

  // kept when the test fails: the cluster's own logs (flink-cluster/logs) say what its processes
  // saw
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path out;

  @AfterEach
  void letTheClusterGo() {
    SharedProcessClusters.closeAll();
  }

  @Test
  void theFailureClassesAndTheProcessFaultsPassOnAClusterOfProcesses() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--flink-cluster",
                "processes:2tm:2jm",
                "--faults",
                SCENARIOS.stream()
                    .map(s -> s.contains(":") ? s : s + ":default")
                    .collect(Collectors.joining(",")),
                "--events",
                "600",
                "--seed",
                "11",
                "--out",
                out.toString());

    assertThat(exit)
        .as(
            "exit code; the cluster's leadership and ZooKeeper lines:%n%s%nstdout:%n%s%nstderr:%n%s",
            leadershipLines(out.resolve("flink-cluster").resolve("logs")), stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    assertThat(byScenario.keySet()).contains("baseline").containsAll(SCENARIOS);
    for (RunRecord run : byScenario.values()) {
      String scenario = run.scenario().name();
      assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
      assertThat(run.effectiveConfiguration().get("flink.cluster.kind"))
          .as(scenario)
          .contains("processes");
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery()).as(scenario).isNotNull();
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
      }
    }
    Map<String, String> killed = details(byScenario.get("task-failure:process-kill"));
    assertThat(killed).containsEntry("exit_status", "137").containsKey("replacement_pid");
    Map<String, String> paused = details(byScenario.get("task-failure:process-pause"));
    assertThat(paused).containsKeys("declared_lost_after_ms", "resumed_at");
    assertThat(byScenario.get("task-failure:process-pause").faults().get(0).recovery().details())
        .as("a thawed TaskManager comes back after being declared lost")
        .hasEntrySatisfying("comeback", comeback -> assertThat(comeback).contains("registered"));
    Map<String, String> failover = details(byScenario.get("jobmanager-failover"));
    assertThat(failover).containsEntry("exit_status", "137").containsKeys("takeover_ms");
    assertThat(failover.get("new_leader")).isNotEqualTo(failover.get("old_leader"));
    assertThat(byScenario.get("jobmanager-failover").faults().get(0).recovery().details())
        .as("the killed JobManager rejoined as the standby")
        .containsEntry("rejoined", "true")
        .containsKey("rejoined_pid");
    Map<String, String> crashed = details(byScenario.get("source-crash"));
    assertThat(crashed).containsKeys("killed_pid", "new_pid");
    assertThat(crashed.get("new_pid")).isNotEqualTo(crashed.get("killed_pid"));
    assertThat(details(byScenario.get("network-latency")))
        .as("the TaskManagers' source link went through the lab's proxy and was delayed")
        .containsEntry("link", "source")
        .hasEntrySatisfying(
            "proxy_at_heal_chunks_delayed",
            chunks -> assertThat(Long.parseLong(chunks)).isPositive());
    Map<String, String> cut =
        byScenario.get("network-partition:zookeeper").faults().get(0).recovery().details();
    assertThat(cut.values())
        .as("the processes' own symptoms of the cut: their ZooKeeper sessions suspended")
        .anySatisfy(line -> assertThat(line).contains("State change: SUSPENDED"));

    aChangelogSinkThatRecommitsARestoredCheckpointFailsUnderAJobManagerFailover();

    // the cluster outlives the scenarios (one per suite), never the lab
    List<Long> pids = recordedPids(out.resolve("flink-cluster"));
    assertThat(pids).isNotEmpty();
    SharedProcessClusters.closeAll();
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("process %d of the cluster is gone once the lab let it go", pid)
          .isFalse();
    }
  }

  /**
   * The fault-sensitive control of {@code jobmanager-failover}, on the same cluster: the changelog
   * sink that commits its restored state again without asking the table ({@code
   * broken-changelog-at-least-once}) passes the baseline and duplicates the checkpoint the new
   * leader restored.
   */
  private void aChangelogSinkThatRecommitsARestoredCheckpointFailsUnderAJobManagerFailover()
      throws Exception {
    Path control = out.resolve("control");
    StringWriter stdout = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout),
                new PrintWriter(new StringWriter()),
                getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--flink-cluster",
                "processes:2tm:2jm",
                "--faults",
                "jobmanager-failover:default",
                "--pipeline-option",
                "job.variant=broken-changelog-at-least-once",
                "--events",
                "600",
                "--seed",
                "5",
                "--no-report",
                "--out",
                control.toString());
    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    Map<String, RunRecord> runs =
        RunRecordReader.readDirectory(control).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    assertThat(runs.get("baseline").summary().passed()).isTrue();
    RunRecord failover = runs.get("jobmanager-failover");
    assertThat(failover.faults().get(0).evidence().status()).isEqualTo(FaultStatus.FIRED);
    assertThat(failover.summary().failedChecks())
        .contains("event-id-audit")
        .noneMatch(name -> name.startsWith("baseline:") || name.startsWith("recovery:"));
    assertDuplicatedEventIds(failover);
  }

  private static Map<String, String> details(RunRecord run) {
    assertThat(run).isNotNull();
    return run.faults().get(0).evidence().details();
  }

  /**
   * The last lines of each process's log about leadership and ZooKeeper sessions, so that a failed
   * run says whether a leader was elected after a cut, and why not.
   */
  private static String leadershipLines(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return "(no logs at " + logs + ")";
    }
    java.util.regex.Pattern about =
        java.util.regex.Pattern.compile(
            "(?i)leader|state change|session|expired|curator|latch|zookeeper");
    StringBuilder lines = new StringBuilder("logs kept at " + logs + "\n");
    try (Stream<Path> files = Files.list(logs)) {
      for (Path log : files.sorted().toList()) {
        List<String> matching;
        try (Stream<String> all = Files.lines(log, java.nio.charset.StandardCharsets.UTF_8)) {
          matching = all.filter(line -> about.matcher(line).find()).toList();
        } catch (java.io.UncheckedIOException unreadable) {
          continue;
        }
        lines.append("== ").append(log.getFileName()).append('\n');
        matching.subList(Math.max(0, matching.size() - 15), matching.size()).stream()
            .map(line -> line.length() > 240 ? line.substring(0, 240) : line)
            .forEach(line -> lines.append(line).append('\n'));
      }
    }
    return lines.toString();
  }

  /** Every pid a pid file under the cluster's directory names, however deep. */
  private static List<Long> recordedPids(Path clusterDirectory) throws IOException {
    try (Stream<Path> files = Files.walk(clusterDirectory)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".pid"))
          .map(
              p -> {
                try {
                  return Long.parseLong(Files.readString(p).strip());
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }
}
