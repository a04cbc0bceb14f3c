package io.reliabilitylab.pipeline.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.process.LabProcesses;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A real multi-process cluster: TaskManagers SIGKILLed and SIGSTOPped, orphans cleaned up. */
class ProcessFlinkClusterIT {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessFlinkClusterIT.class);
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path directory;

  @Test
  void aKilledAndAPausedTaskManagerRestartTheJobAndCloseLeavesNoProcess() throws Exception {
    List<Long> pids = new ArrayList<>();
    ProcessFlinkCluster cluster =
        ProcessFlinkCluster.start(ProcessClusterSettings.defaults(), directory);
    try {
      LOG.info("Cluster (1 JM + 2 TMs) up in {} ms", cluster.startTime().toMillis());
      assertThat(cluster.registeredTaskManagers()).containsExactly("tm-1", "tm-2");
      assertThat(Files.readString(cluster.directory().resolve("logs/flink-jm-1.log")))
          .contains("StandaloneSessionClusterEntrypoint");
      JobID job = cluster.submit(new CountingJob());
      cluster.awaitRunning(job, TIMEOUT);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), TIMEOUT);

      // SIGKILL a TaskManager running the job's tasks
      String victim = cluster.liveTaskManagersOf(job).get(0);
      long restarts = cluster.restartCount(job);
      Instant killed = Instant.now();
      assertThat(cluster.kill(victim)).isEqualTo(137);
      await("a restart after the kill", () -> cluster.restartCount(job) > restarts);
      cluster.awaitRunning(job, TIMEOUT);
      Duration running = Duration.between(killed, Instant.now());
      CheckpointInfo after = cluster.awaitCompletedCheckpointAfter(job, killed, TIMEOUT);
      LOG.info(
          "TaskManager {} SIGKILLed: job running again after {} ms, checkpoint {} after {} ms",
          victim,
          running.toMillis(),
          after.id(),
          Duration.between(killed, after.finishedAt()).toMillis());
      assertThat(cluster.liveTaskManagersOf(job)).doesNotContain(victim).isNotEmpty();
      String replacement = cluster.startTaskManager();
      assertThat(cluster.registeredTaskManagers()).contains(replacement).doesNotContain(victim);

      // SIGSTOP one past the heartbeat timeout: it is declared lost and the job restarts
      String paused = cluster.liveTaskManagersOf(job).get(0);
      long restartsBeforePause = cluster.restartCount(job);
      Instant stopped = Instant.now();
      cluster.pause(paused);
      await(
          "the paused TaskManager to leave /taskmanagers",
          () -> !cluster.registeredTaskManagers().contains(paused));
      LOG.info(
          "Paused TaskManager {} declared lost after {} ms (heartbeat timeout {})",
          paused,
          Duration.between(stopped, Instant.now()).toMillis(),
          cluster.heartbeatTimeout());
      await("a restart after the pause", () -> cluster.restartCount(job) > restartsBeforePause);
      cluster.resume(paused);
      cluster.awaitRunning(job, TIMEOUT);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), TIMEOUT);
      await(
          "the resumed TaskManager to register again",
          () -> cluster.registeredTaskManagers().contains(paused));
      cluster.cancel(job);
      cluster.ensureHealthy(TIMEOUT);
      assertThat(cluster.taskManagerProcesses()).hasSize(2).allMatch(TaskManagerProcess::alive);

      cluster.jobManagerProcesses().forEach(jm -> pids.add(jm.pid()));
      cluster.taskManagerProcesses().forEach(tm -> pids.add(tm.pid()));
    } finally {
      cluster.close();
    }
    assertThat(pids).isNotEmpty().allMatch(pid -> ProcessHandle.of(pid).isEmpty());
    assertThat(pgrep(cluster.id())).isEmpty();
  }

  @Test
  void aSharedClusterIsReusedAndMadeHealthyAgain() throws Exception {
    ProcessClusterSettings settings = ProcessClusterSettings.builder().taskManagers(1).build();
    ProcessFlinkCluster first;
    try (ClusterLease<ProcessFlinkCluster> lease =
        SharedProcessClusters.acquire(settings, directory)) {
      first = lease.cluster();
      assertThat(first.kill("tm-1")).isEqualTo(137);
    }
    assertThat(first.closed()).isFalse();
    List<Long> pids = new ArrayList<>();
    try (ClusterLease<ProcessFlinkCluster> lease =
        SharedProcessClusters.acquire(settings, directory)) {
      assertThat(lease.cluster()).isSameAs(first);
      // the dead TaskManager was replaced and is no longer registered
      assertThat(lease.cluster().registeredTaskManagers()).containsExactly("tm-2");
      lease.cluster().jobManagerProcesses().forEach(jm -> pids.add(jm.pid()));
      lease.cluster().taskManagerProcesses().forEach(tm -> pids.add(tm.pid()));
    } finally {
      SharedProcessClusters.closeAll();
    }
    assertThat(first.closed()).isTrue();
    assertThat(pids).hasSize(2).allMatch(pid -> ProcessHandle.of(pid).isEmpty());
  }

  @Test
  void aLaterRunKillsTheClusterOfASigkilledLab() throws Exception {
    Path argFile = directory.resolve("java.args");
    Files.writeString(argFile, "-cp \"" + System.getProperty("java.class.path") + "\"");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ProcessClusterConfig.JAVA_17_FLAGS);
    command.addAll(List.of("-Xmx256m", "@" + argFile, OrphanClusterMain.class.getName()));
    command.add(directory.resolve("cluster").toString());
    Process lab = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<Long> pids;
    try {
      pids = awaitReady(lab);
      assertThat(pids).hasSize(2).allMatch(pid -> ProcessHandle.of(pid).isPresent());
    } finally {
      lab.destroyForcibly(); // SIGKILL: no shutdown hook runs
      lab.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(lab.exitValue()).isEqualTo(137);
    assertThat(pids)
        .allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));

    assertThat(LabProcesses.cleanUpStale()).containsAll(pids);

    assertThat(pids).allMatch(pid -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    assertThat(directory.resolve("cluster/pids")).isEmptyDirectory();
  }

  private static List<Long> awaitReady(Process lab) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(lab.getInputStream(), StandardCharsets.UTF_8));
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("READY ")) {
        String list = line.substring("READY ".length()).replaceAll("[\\[\\] ]", "");
        return Arrays.stream(list.split(",")).map(Long::valueOf).toList();
      }
      seen.add(line);
    }
    throw new AssertionError("The lab stand-in ended without READY: " + seen);
  }

  static List<String> pgrep(String marker) throws Exception {
    Process pgrep = new ProcessBuilder("pgrep", "-f", "srl.cluster=" + marker).start();
    pgrep.waitFor(10, TimeUnit.SECONDS);
    return new String(pgrep.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
        .lines()
        .toList();
  }

  static void await(String what, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (condition.call()) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Waited " + TIMEOUT + " for " + what + "; last failure: " + last);
  }
}
