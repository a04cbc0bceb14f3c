package io.reliabilitylab.examples.customfault;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Plugins;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline team's test of its job against a lost source connection: the lab runs the direct
 * reference pipeline (MySQL/MariaDB → Flink CDC → Flink → Iceberg) on embedded defaults, streams a
 * seeded workload, kills the connector's binlog connection on the database while the workload
 * continues, and reconciles the Iceberg tables with the source.
 */
class SourceConnectionLossIT {

  private static final Logger LOG = LoggerFactory.getLogger(SourceConnectionLossIT.class);

  /** The lab's embedded MariaDB, one per JVM: binlog on, a CDC account with a random password. */
  private static final EmbeddedMariaDb SOURCE = EmbeddedMariaDb.shared();

  /**
   * How long recovery and catch-up may take. Flink CDC does not fail the job when the server drops
   * its binlog connection: the binlog client's keep-alive thread reconnects once no event arrived
   * for a keep-alive interval (Debezium's {@code connect.keep.alive.interval.ms}: 60 s by default,
   * so a pipeline on the defaults stalls 60 to 120 s; the lab's direct pipeline sets 10 s).
   */
  private static final Duration RECOVERY_DEADLINE = Duration.ofSeconds(180);

  @TempDir Path runs;

  // region pipeline-team-test
  @Test
  void theJobRecoversFromLosingItsBinlogConnectionWithoutLossOrDuplicates() throws Exception {
    ClassLoader classPath = getClass().getClassLoader();
    ScenarioRunner lab =
        new ScenarioRunner(
            SOURCE,
            runs,
            Plugins.pipelines(classPath).requireNoProblems().all(),
            Plugins.checks(classPath).requireNoProblems().all(),
            Plugins.faults(classPath).requireNoProblems().all(),
            List.of("junit", getClass().getSimpleName()),
            Clock.systemUTC());

    // A baseline of about 500 changes, reconciled; then the fault, while the rest is written.
    RunRecord run =
        lab.run(
            new ScenarioPlan(
                "direct",
                SourceConnectionLossInjector.NAME,
                42,
                1_000,
                Map.of(),
                Duration.ofSeconds(60),
                RECOVERY_DEADLINE,
                List.of(PlannedFault.of(SourceConnectionLossInjector.NAME))));

    FaultRecord fault = run.faults().get(0);
    FaultEvidence fired = fault.evidence();
    assertThat(fired.status()).as("%s", fired).isEqualTo(FaultStatus.FIRED);
    assertThat(fired.details())
        .containsKeys("killed_connection_id", "killed_at", "binlog_file", "binlog_offset");
    RecoveryEvidence recovery = fault.recovery();
    assertThat(recovery).isNotNull();
    assertThat(recovery.recovered()).isTrue();
    assertThat(recovery.details().get("reconnected_connection_id"))
        .as("the connector's new binlog connection")
        .isNotEqualTo(fired.details().get("killed_connection_id"));

    assertThat(run.summary().error()).as("run error").isNull();
    assertThat(run.checks())
        .extracting(CheckResult::check)
        .contains("baseline:snapshot-diff", "snapshot-diff", "changelog-completeness");
    assertThat(run.checks())
        .allSatisfy(
            check ->
                assertThat(check.verdict())
                    .as("%s: %s", check.check(), check.summary())
                    .isEqualTo(Verdict.PASSED));
    assertThat(run.summary().passed()).isTrue();
    // endregion

    LOG.info("Fault evidence: {} {}", fired.details(), fired.proofs());
    LOG.info(
        "Recovery: {} restart(s), first commit {} ms after the kill; {}",
        recovery.restarts(),
        recovery.timeToFirstCommit() == null ? "-" : recovery.timeToFirstCommit().toMillis(),
        recovery.details());
    LOG.info("Timings: {}", run.timings());
    // The fault reached the source through context.source(); its password is in no record.
    assertThat(fired.details()).containsEntry("user", SOURCE.cdcCredentials().user());
    assertThat(recordedText()).doesNotContain(SOURCE.cdcCredentials().revealPassword());
  }

  /** Every JSON file the run wrote: the run record and whatever else the lab keeps as text. */
  private String recordedText() throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.walk(runs)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
        text.append(Files.readString(file));
      }
    }
    assertThat(text).as("the run record in %s", runs).isNotEmpty();
    return text.toString();
  }
}
