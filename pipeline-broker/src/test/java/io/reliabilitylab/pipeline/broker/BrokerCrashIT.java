package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code broker-restart:crash} on the broker pipeline with its broker as a process of its own: the
 * broker is killed with SIGKILL while the workload runs and started again on the same data; every
 * check passes, the fault is proven by the exit status, the pids and the unclean recovery, and no
 * broker process outlives the run.
 */
class BrokerCrashIT {

  @TempDir Path out;

  @Test
  void aSigkilledBrokerProcessLosesNothingAndLeavesNoProcessBehind() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "broker",
                "--faults",
                "broker-restart:crash",
                "--events",
                "400",
                "--seed",
                "14",
                "--pipeline-option",
                BrokerPipelineProvider.BROKER_PROCESS + "=true",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    RunRecord crash =
        byScenario.values().stream()
            .filter(run -> run.scenario().name().contains("crash"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no crash scenario in " + byScenario.keySet()));
    assertThat(crash.summary().passed()).as("%s", crash.summary().reasons()).isTrue();
    assertThat(crash.checks()).extracting(CheckResult::verdict).containsOnly(Verdict.PASSED);
    assertThat(crash.checks())
        .extracting(CheckResult::check)
        .contains("offset-checkpoint-snapshot-linkage", "snapshot-diff");
    assertThat(crash.effectiveConfiguration().get("kafka.broker.kind")).contains("its own process");
    assertThat(crash.stackVersions().get("kafka_broker")).startsWith("KRaft process");

    assertThat(crash.faults()).hasSize(1);
    FaultRecord fault = crash.faults().get(0);
    FaultEvidence evidence = fault.evidence();
    assertThat(evidence.status()).as(evidence.reason()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.recovery()).isNotNull();
    assertThat(fault.recovery().recovered()).isTrue();
    Map<String, String> details = evidence.details();
    assertThat(details).containsEntry("exit_status", "137");
    long killed = Long.parseLong(details.get("killed_pid"));
    long restarted = Long.parseLong(details.get("restarted_pid"));
    assertThat(restarted).isNotEqualTo(killed);
    assertThat(details.get("recovery_log")).contains("no clean shutdown file");
    assertThat(details.get("claim_boundary"))
        .contains("page cache")
        .contains("unclean log recovery")
        .contains("idempotence");
    assertThat(evidence.proofs())
        .anyMatch(proof -> proof.contains("exit status 137"))
        .anyMatch(proof -> proof.contains("recovered its log uncleanly"))
        .anyMatch(proof -> proof.contains("a new broker process " + restarted + " answers"));

    for (long pid : List.of(killed, restarted)) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("broker process %d after the run", pid)
          .isFalse();
    }
    assertThat(
            ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(process -> process.info().commandLine().orElse(""))
                .filter(command -> command.contains("kafka.Kafka")))
        .as("broker processes this JVM started that are still alive")
        .isEmpty();
  }
}
