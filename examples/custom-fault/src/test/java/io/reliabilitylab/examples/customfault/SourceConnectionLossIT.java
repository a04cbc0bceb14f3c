package io.reliabilitylab.examples.customfault;

import static io.reliabilitylab.junit.LabAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.junit.ReliabilityLabExtension;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

  // region lab-extension
  @RegisterExtension
  static final ReliabilityLabExtension lab =
      ReliabilityLabExtension.forPipeline("direct").withCatchUpTimeout(RECOVERY_DEADLINE);

  // endregion

  // region pipeline-team-test
  @Test
  void theJobRecoversFromLosingItsBinlogConnectionWithoutLossOrDuplicates() throws Exception {
    // A baseline of about 500 changes, reconciled; then the fault, while the rest is written.
    RunRecord run =
        lab.scenario().seed(42).events(1_000).inject(SourceConnectionLossInjector.NAME).run();

    // Recovered in ~14 s here: the pipeline's binlog client notices the lost connection within
    // its 10 s keep-alive interval and reconnects.
    assertThat(run)
        .passed()
        .fault(SourceConnectionLossInjector.NAME)
        .fired()
        .recoveredWithin(Duration.ofSeconds(60));
    assertThat(run).check("baseline:snapshot-diff").passed();
    assertThat(run).check("changelog-completeness").passed();
    assertThat(run).snapshotDiff(0);
    assertThat(run)
        .fault(SourceConnectionLossInjector.NAME)
        .details()
        .containsKeys("killed_connection_id", "killed_at", "binlog_file", "binlog_offset");
    FaultRecord fault = run.faults().get(0);
    assertThat(run)
        .fault(SourceConnectionLossInjector.NAME)
        .recoveryDetails()
        .as("the connector's new binlog connection")
        .containsKey("reconnected_connection_id")
        .doesNotContainEntry(
            "reconnected_connection_id", fault.evidence().details().get("killed_connection_id"));
    // endregion

    // Recovery counts from the connector's new connection: the first commit is one made after it,
    // not the commit of what was read before the kill.
    assertThat(fault.recovery().firstCommitAt())
        .isAfter(Instant.parse(fault.recovery().details().get("reconnected_at")));

    LOG.info("Fault evidence: {} {}", fault.evidence().details(), fault.evidence().proofs());
    LOG.info("Recovery: {}; timings: {}", fault.recovery(), run.timings());
    // The fault reached the source through context.source(); its password is in no record.
    assertThat(fault.evidence().details()).containsEntry("user", SOURCE.cdcCredentials().user());
    assertThat(recordedText(run)).doesNotContain(SOURCE.cdcCredentials().revealPassword());
  }

  /** Every JSON file the run wrote: its record and whatever else the lab keeps as text. */
  private static String recordedText(RunRecord run) throws IOException {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.walk(lab.runDirectory())) {
      for (Path file :
          files
              .filter(f -> f.toString().contains(run.runId()) && f.toString().endsWith(".json"))
              .toList()) {
        text.append(Files.readString(file));
      }
    }
    Assertions.assertThat(text).as("the run record in %s", lab.runDirectory()).isNotEmpty();
    return text.toString();
  }
}
