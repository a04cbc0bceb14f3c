package io.reliabilitylab.report;

import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.ExerciseRecord;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.Quarantine;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A run directory for dashboard tests: a passing direct run with a fault and a pressure exercise, a
 * failing direct run with evidence samples, and a passing broker run with linkage, a dead letter
 * and its repair, plus the suite summary of the three.
 */
public final class DashboardSamples {

  static final Instant START = Instant.parse("2026-08-20T13:17:52Z");
  public static final String PASSING = "20260820T131752Z-0000aa01";
  public static final String FAILING = "20260820T131952Z-0000aa02";
  static final String BROKER = "20260820T132152Z-0000aa03";
  static final String SUITE = "20260820T131750Z-0000aaff";

  /** The bytes of the poison message; the page may show their hash and length, never them. */
  static final String POISON_PAYLOAD =
      "{\"order_id\": POISON-PAYLOAD-7f3a, \"note\": \"cleartext\"";

  /** A check summary with markup in it, which the page must show as text. */
  static final String MARKUP = "<script>alert('x&y')</script>";

  private DashboardSamples() {}

  /** Writes the three records and the suite summary into {@code directory}. */
  public static RunDirectory write(Path directory) throws IOException {
    RunRecordWriter writer = new RunRecordWriter(directory);
    List<RunRecord> runs = List.of(passing(), failing(), broker());
    for (RunRecord run : runs) {
      writer.write(run);
    }
    writer.writeSuite(
        SuiteSummary.of(
            SUITE,
            START,
            START.plusSeconds(400),
            "reliability-lab run --pipeline direct --faults all",
            runs));
    return RunDirectory.read(directory);
  }

  static EnvironmentInfo environment() {
    return new EnvironmentInfo(
        "Linux",
        "6.8.0",
        "Debian GNU/Linux 12 (bookworm)",
        "6.8.0",
        "amd64",
        8,
        "AMD EPYC",
        32_687_382_528L,
        "17.0.15",
        "Debian",
        "OpenJDK 64-Bit Server VM 17.0.15",
        8_589_934_592L,
        "lab-host",
        List.of(1.5, 1.25, 1.0),
        "embedded-mariadb",
        false,
        null);
  }

  static RunRecord passing() {
    Instant start = START;
    return base(PASSING, start, "task-failure", "direct")
        .fault(fault("task-failure", start.plusSeconds(12), 4_000, 0))
        .exercise(pressure(start.plusSeconds(30)))
        .check(
            CheckResult.passed(
                "snapshot-diff",
                "orders_current equals the source: 140 rows",
                Evidence.builder()
                    .count("expected_rows", 140)
                    .count("actual_rows", 140)
                    .count("missing", 0)
                    .digest(
                        "expected",
                        "d1cac00223c4ee5ddf9bb813e3c415158f7ab9973a4796aa7c1e3cf55225ca3d")
                    .build()))
        .snapshots(snapshots("lab.orders_current", start, 1, 6))
        .snapshots(snapshots("lab.orders_changelog", start, 1, 6))
        .timing("start", Duration.ofMillis(4_200))
        .timing("workload", Duration.ofMillis(900))
        .timing("reconcile", Duration.ofMillis(3_000))
        .snapshotDiffCount(0)
        .build();
  }

  static RunRecord failing() {
    Instant start = START.plusSeconds(120);
    Evidence.Builder evidence =
        Evidence.builder(2).count("missing", 3).count("unexpected", 1).count("mismatched", 0);
    evidence.sample(
        new EvidenceSample(
            "missing",
            "order_id=42",
            Map.of("status", "SHIPPED", "amount", "12.50"),
            Map.of(),
            List.of(),
            "lost after restoring savepoint 2"));
    evidence.sample(EvidenceSample.of("unexpected", "order_id=77", "a row deleted at the source"));
    evidence.sample(EvidenceSample.of("missing", "order_id=43", "capped away"));
    return base(FAILING, start, "savepoint-restore", "direct")
        .fault(fault("savepoint-restore", start.plusSeconds(10), 6_500, 1))
        .check(
            CheckResult.failed(
                "snapshot-diff", "4 differences; " + MARKUP + " & more", evidence.build()))
        .check(
            CheckResult.passed(
                "no-duplicate-keys",
                "no key twice",
                Evidence.builder().count("duplicate_keys", 0).build()))
        .snapshots(snapshots("lab.orders_current", start, 1, 4))
        .timing("reconcile", Duration.ofMillis(1_500))
        .snapshotDiffCount(4)
        .build();
  }

  static RunRecord broker() {
    Instant start = START.plusSeconds(240);
    return base(BROKER, start, "poison-message", "broker")
        .scenario(
            ScenarioInfo.of("broker", "poison-message", 42, 100, 20)
                .withVariant("non-avro")
                .withBroker("broker.cdc_lab.orders", "broker.cdc_lab.orders.dlq", "lab-42"))
        .fault(fault("poison-message", start.plusSeconds(15), 3_000, 0))
        .baselineLinkage(linkage("baseline", start.plusSeconds(10), 3, 0))
        .repairLinkage(linkage("repair", start.plusSeconds(25), 8, 1))
        .finalLinkage(linkage("final", start.plusSeconds(40), 12, 2))
        .check(
            CheckResult.passed(
                "dlq-integrity",
                "one dead letter, original bytes preserved",
                Evidence.builder().count("dlq_records", 1).build()))
        .dlqRecord(
            new DlqRecord(
                "broker.cdc_lab.orders.dlq",
                0,
                0,
                "broker.cdc_lab.orders",
                2,
                5,
                1787231907421L,
                "org.apache.kafka.connect.errors.DataException",
                "Unexpected character in " + POISON_PAYLOAD,
                start.plusSeconds(16),
                1,
                sha256(POISON_PAYLOAD),
                POISON_PAYLOAD.getBytes(StandardCharsets.UTF_8).length,
                true))
        .quarantine(
            Quarantine.of("retained with repair replay recorded")
                .withRepair(
                    "decode intended row, re-encode, replay with PK key",
                    new Quarantine.ProducedRecord("broker.cdc_lab.orders", 2, 6, 1787231912635L),
                    new Quarantine.Reconciliation(
                        13,
                        13,
                        "6626ba9b7c86afe05e12def32ff640ccbb628e8711ebf3ca4a329017680cafbd",
                        "6626ba9b7c86afe05e12def32ff640ccbb628e8711ebf3ca4a329017680cafbd",
                        0,
                        5686071750501346400L))
                .withAffectedKeys(List.of(RowKey.of(9300304L))))
        .snapshots(snapshots("lab.orders_current", start, 2, 5))
        .timing("reconcile", Duration.ofMillis(2_000))
        .snapshotDiffCount(0)
        .build();
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RunRecord.Builder base(
      String runId, Instant start, String fault, String pipeline) {
    return RunRecord.builder(runId, start)
        .finishedAt(start.plusSeconds(60))
        .command(List.of("reliability-lab", "run", "--pipeline", pipeline, "--faults", fault))
        .environment(environment())
        .stackVersion("flink", "1.20.3")
        .stackVersion("iceberg", "1.10.0")
        .scenario(ScenarioInfo.of(pipeline, fault, 42, 100, 20))
        .configuration("execution.checkpointing.interval", "PT1S")
        .claimBoundary("Shows that the " + fault + " scenario recovers; not more.");
  }

  private static FaultRecord fault(String name, Instant injected, long recoverMs, long restarts) {
    FaultSpec spec =
        new FaultSpec("srl-fault-1-" + name, name, new FaultPosition.AtCheckpoint(3), Map.of());
    Instant fired = injected.plusMillis(300);
    FaultEvidence evidence =
        new FaultEvidence(
            spec.id(),
            name,
            FaultStatus.FIRED,
            injected,
            fired,
            name + " injected at checkpoint 3",
            Map.of("checkpoint_id", "3"),
            List.of("the job's exception history names " + spec.id()),
            "");
    RecoveryEvidence recovery =
        new RecoveryEvidence(
            true,
            fired,
            fired.plusMillis(recoverMs / 3),
            5L,
            fired.plusMillis(recoverMs / 2),
            4061448876306798210L,
            fired.plusMillis(recoverMs),
            restarts,
            Map.of());
    return FaultRecord.of(spec, evidence, recovery);
  }

  private static ExerciseRecord pressure(Instant start) {
    return ExerciseRecord.builder("checkpoint-pressure", start)
        .figure("checkpoint_p50_ms_baseline", 55)
        .figure("checkpoint_max_ms_pressure", 19_022)
        .figure("max_lag_events", 41_250)
        .fact("throttle", "200 events/s per subtask")
        .point("lag_events", 0, 0)
        .point("checkpoint_ms", 0, 55)
        .point("lag_events", 5_000, 41_250)
        .point("checkpoint_ms", 12_000, 19_022)
        .point("lag_events", 20_000, 0)
        .build(start.plusSeconds(20));
  }

  private static List<SnapshotInfo> snapshots(String table, Instant start, int first, int last) {
    return java.util.stream.IntStream.rangeClosed(first, last)
        .mapToObj(
            checkpoint ->
                new SnapshotInfo(
                    table,
                    4061448876306798000L + checkpoint,
                    start.plusSeconds(5L + checkpoint * 4L + (checkpoint >= 4 ? 4L : 0L)),
                    "overwrite",
                    "51dd090a",
                    (long) checkpoint))
        .toList();
  }

  private static LinkageRecord linkage(String label, Instant at, long checkpoint, long shift) {
    return new LinkageRecord(
        label,
        at,
        "broker.cdc_lab.orders",
        "lab-42",
        List.of(
            new LinkageRecord.PartitionOffset(0, 30 + shift, 30 + shift),
            new LinkageRecord.PartitionOffset(1, 40, 41 + shift)),
        new LinkageRecord.CheckpointRef(checkpoint, "COMPLETED", null),
        Map.of(
            "orders_current",
            new LinkageRecord.SnapshotRef(4318176490047650439L + shift, "51dd090a", checkpoint)));
  }
}
