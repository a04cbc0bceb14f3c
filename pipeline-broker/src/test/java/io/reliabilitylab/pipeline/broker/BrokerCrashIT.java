package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.BrokerRestartInjector;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.FaultVariant;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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
    BrokerRestartInjector fault = new BrokerRestartInjector();
    FaultVariant crashVariant =
        fault.variants().stream().filter(v -> v.name().equals("crash")).findFirst().orElseThrow();
    // one scenario, no separate baseline run: the scenario reconciles its own baseline first
    ScenarioPlan plan =
        ScenarioPlan.of("broker", "broker-restart:crash", 14, 400)
            .withFaultVariant(fault.name(), crashVariant)
            .withOption(BrokerPipelineProvider.BROKER_PROCESS, "true");
    ClassLoader classLoader = getClass().getClassLoader();
    ScenarioRunner runner =
        new ScenarioRunner(
            EmbeddedMariaDb.shared(),
            out,
            Discovered.pipelines(classLoader).requireNoProblems().all(),
            Discovered.checks(classLoader).requireNoProblems().all(),
            Discovered.faults(classLoader).requireNoProblems().all(),
            List.of("it", plan.scenario()),
            Clock.systemUTC());
    RunRecord crash = runner.run(plan);

    assertThat(crash.summary().passed()).as("%s", crash.summary().reasons()).isTrue();
    assertThat(crash.checks()).extracting(CheckResult::verdict).containsOnly(Verdict.PASSED);
    assertThat(crash.checks())
        .extracting(CheckResult::check)
        .contains("offset-checkpoint-snapshot-linkage", "snapshot-diff");
    assertThat(crash.effectiveConfiguration().get("kafka.broker.kind")).contains("its own process");
    assertThat(crash.stackVersions().get("kafka_broker")).startsWith("KRaft process");

    assertThat(crash.linkage().baseline()).isNotNull();
    assertThat(crash.linkage().finalLinkage()).isNotNull();
    assertThat(crash.faults()).hasSize(1);
    FaultRecord fired = crash.faults().get(0);
    FaultEvidence evidence = fired.evidence();
    assertThat(evidence.status()).as(evidence.reason()).isEqualTo(FaultStatus.FIRED);
    assertThat(fired.recovery()).isNotNull();
    assertThat(fired.recovery().recovered()).isTrue();
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
