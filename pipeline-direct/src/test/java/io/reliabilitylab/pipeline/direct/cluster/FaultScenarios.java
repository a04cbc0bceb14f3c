package io.reliabilitylab.pipeline.direct.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one fault scenario on the direct pipeline through the harness's runner, for the ITs. */
final class FaultScenarios {

  private static final Logger LOG = LoggerFactory.getLogger(FaultScenarios.class);

  private FaultScenarios() {}

  /** Baseline, then {@code fault} while the rest of the workload is written; the run's record. */
  static RunRecord run(Path out, String fault, int events, long seed) throws Exception {
    return run(out, PlannedFault.of(fault), events, seed);
  }

  /** Baseline, then {@code planned} while the rest of the workload is written. */
  static RunRecord run(Path out, PlannedFault planned, int events, long seed) throws Exception {
    String fault = planned.fault();
    ClassLoader classLoader = FaultScenarios.class.getClassLoader();
    ScenarioRunner runner =
        new ScenarioRunner(
            EmbeddedMariaDb.shared(),
            out,
            Discovered.pipelines(classLoader).requireNoProblems().all(),
            Discovered.checks(classLoader).requireNoProblems().all(),
            Discovered.faults(classLoader).requireNoProblems().all(),
            List.of("it", fault),
            Clock.systemUTC());
    ScenarioPlan plan =
        ScenarioPlan.of("direct", "baseline", seed, events).withFaults(fault, List.of(planned));
    long started = System.nanoTime();
    RunRecord record = runner.run(plan);
    LOG.info(
        "Scenario {} took {} ms: {}",
        fault,
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        record.summary());
    record.faults().forEach(f -> LOG.info("Fault {}: {}", fault, describe(f)));
    LOG.info("Timings of {}: {}", fault, record.timings());
    LOG.info(
        "Timeouts of {}: {}",
        fault,
        record.effectiveConfiguration().entrySet().stream()
            .filter(
                e ->
                    e.getKey().startsWith("heartbeat.")
                        || e.getKey().startsWith("pekko.")
                        || e.getKey().startsWith("restart-strategy")
                        || e.getKey().startsWith("execution.checkpointing.")
                        || e.getKey().contains("empty-commits"))
            .toList());
    LOG.info(
        "Commits of the current table in {}: {}",
        fault,
        record.snapshots().stream()
            .filter(s -> s.table().endsWith("orders_current"))
            .map(s -> s.committedCheckpointId() + "@" + s.committedAt() + " " + s.operation())
            .toList());
    return record;
  }

  /** The recovery figures of a fault, for the log. */
  static String describe(FaultRecord fault) {
    RecoveryEvidence recovery = fault.recovery();
    if (recovery == null) {
      return fault.evidence().status() + ", no recovery: " + fault.evidence().reason();
    }
    return fault.evidence().status()
        + ", running again after "
        + millis(recovery, recovery.runningAt())
        + " ms, first checkpoint "
        + recovery.firstCheckpointId()
        + " after "
        + millis(recovery, recovery.firstCheckpointAt())
        + " ms, first commit after "
        + millis(recovery, recovery.firstCommitAt())
        + " ms ("
        + recovery.details()
        + "); evidence "
        + fault.evidence().details();
  }

  private static String millis(
      RecoveryEvidence recovery, java.time.@org.jspecify.annotations.Nullable Instant at) {
    return at == null ? "-" : Long.toString(Duration.between(recovery.faultAt(), at).toMillis());
  }

  /** Every check of the record passed, the run has no error. */
  static void assertAllChecksPassed(RunRecord record) {
    assertThat(record.summary().error()).as("run error").isNull();
    assertThat(record.checks()).isNotEmpty();
    assertThat(record.checks())
        .allSatisfy(
            c ->
                assertThat(c.verdict())
                    .as("%s: %s", c.check(), c.summary())
                    .isEqualTo(Verdict.PASSED));
    assertThat(record.checks())
        .extracting(CheckResult::check)
        .contains("baseline:snapshot-diff", "snapshot-diff", "changelog-completeness");
  }
}
