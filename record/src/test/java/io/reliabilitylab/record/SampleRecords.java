package io.reliabilitylab.record;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Run records for tests: one with every section filled, one as small as a record can be. */
final class SampleRecords {

  static final Instant START = Instant.parse("2026-08-20T13:17:52Z");
  static final String RUN_ID = "20260820T131752Z-2aea4b71";

  private SampleRecords() {}

  static EnvironmentInfo environment() {
    return new EnvironmentInfo(
        "Linux",
        "6.8.0-137-generic",
        "Ubuntu 24.04.4 LTS",
        "6.8.0-137-generic",
        "amd64",
        8,
        "AMD EPYC",
        32_687_382_528L,
        "17.0.12",
        "Eclipse Adoptium",
        "OpenJDK 64-Bit Server VM 17.0.12+7",
        8_589_934_592L,
        "lab-host",
        List.of(2.515625, 2.39453125, 2.00439453125),
        "embedded: MiniCluster, in-process Kafka, local Hadoop catalog",
        true,
        "29.7.2");
  }

  static LinkageRecord linkage(String label, long checkpoint, long offsetShift) {
    return new LinkageRecord(
        label,
        START.plusSeconds(checkpoint),
        "broker.cdc_lab.orders",
        "lab-poison-dlq-304",
        List.of(
            new LinkageRecord.PartitionOffset(0, 3 + offsetShift, 3 + offsetShift),
            new LinkageRecord.PartitionOffset(1, 4, 5)),
        new LinkageRecord.CheckpointRef(
            checkpoint, "COMPLETED", "file:/srv/lab/checkpoints/chk-" + checkpoint),
        Map.of(
            "orders_current",
            new LinkageRecord.SnapshotRef(4318176490047650439L, "51dd090a", checkpoint),
            "orders_changelog",
            new LinkageRecord.SnapshotRef(6691504096115368902L, null, null)));
  }

  static FaultRecord firedFault() {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-1-poison-message",
            "poison-message",
            new FaultPosition.AroundCommit(3, true),
            Map.of("variant", "non-avro"));
    Instant injected = START.plusSeconds(30);
    FaultEvidence evidence =
        new FaultEvidence(
            spec.id(),
            spec.fault(),
            FaultStatus.FIRED,
            injected,
            injected.plusMillis(250),
            "malformed UTF-8 JSON bytes on an Avro order topic",
            Map.of("topic", "broker.cdc_lab.orders", "partition", "2", "offset", "5"),
            List.of("record broker.cdc_lab.orders-2@5 is in the DLQ"),
            "");
    RecoveryEvidence recovery =
        new RecoveryEvidence(
            true,
            injected.plusMillis(250),
            injected.plusSeconds(2),
            11L,
            injected.plusSeconds(5),
            5686071750501346400L,
            injected.plusSeconds(6),
            0,
            Map.of("job_id", "51dd090a"));
    return FaultRecord.of(spec, evidence, recovery)
        .withConnectorStatus(
            Map.of(
                "name", "orders-connector",
                "connector", Map.of("state", "PAUSED", "worker_id", "172.18.0.7:8083"),
                "tasks", List.of(Map.of("id", 0, "state", "PAUSED"))),
            Map.of("name", "orders-connector", "connector", Map.of("state", "RUNNING")));
  }

  static FaultRecord skippedFault() {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-2-broker-restart", "broker-restart", new FaultPosition.Now(), Map.of());
    return FaultRecord.of(
        spec,
        FaultEvidence.skipped(spec, START.plusSeconds(40), "the pipeline has no BrokerControl"),
        null);
  }

  static CheckResult snapshotDiff() {
    return CheckResult.passed(
        "snapshot-diff",
        "orders_current equals the source: 14 rows",
        Evidence.builder()
            .count("expected_rows", 14)
            .count("actual_rows", 14)
            .count("missing", 0)
            .digest("expected", "d1cac00223c4ee5ddf9bb813e3c415158f7ab9973a4796aa7c1e3cf55225ca3d")
            .digest("actual", "d1cac00223c4ee5ddf9bb813e3c415158f7ab9973a4796aa7c1e3cf55225ca3d")
            .fact("snapshot_id", "4061448876306798208")
            .build());
  }

  static CheckResult eventIdAudit() {
    return CheckResult.passed(
        "event-id-audit",
        "one duplicate counted under at-least-once",
        Evidence.builder()
            .count("duplicate_occurrences", 1)
            .sample(
                new EvidenceSample(
                    "duplicate",
                    "event_id=3000304",
                    Map.of("count", "1"),
                    Map.of("count", "2"),
                    List.of("count"),
                    "redelivered after the poison record"))
            .build());
  }

  static DlqRecord dlqRecord() {
    return new DlqRecord(
        "broker.cdc_lab.orders.dlq",
        0,
        0,
        "broker.cdc_lab.orders",
        2,
        5,
        1787231907421L,
        "org.apache.kafka.connect.errors.DataException",
        "Failed to deserialize data for topic broker.cdc_lab.orders to Avro:",
        Instant.parse("2026-08-20T13:18:27.441627Z"),
        1,
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        412,
        true);
  }

  static Quarantine quarantine() {
    return Quarantine.of("retained with repair replay recorded")
        .withRepair(
            "decode intended row, re-encode registered Avro, replay with PK key",
            new Quarantine.ProducedRecord("broker.cdc_lab.orders", 2, 6, 1787231912635L),
            new Quarantine.Reconciliation(
                13,
                13,
                "6626ba9b7c86afe05e12def32ff640ccbb628e8711ebf3ca4a329017680cafbd",
                "6626ba9b7c86afe05e12def32ff640ccbb628e8711ebf3ca4a329017680cafbd",
                0,
                5686071750501346400L))
        .withAffectedKeys(List.of(RowKey.of(9300304L), RowKey.of(42L, "eu")))
        .withDetails(Map.of("repair_format", "intended-order-v1", "attempts", 1));
  }

  static Diagnostics diagnostics() {
    return Diagnostics.builder("no checkpoint completed within 60 s after the fault", START)
        .jobState(JobState.RESTARTING)
        .exceptionHistory(
            List.of(
                new JobFailure(
                    START.plusSeconds(31),
                    "java.lang.RuntimeException",
                    "srl-fault-1 injected",
                    "Source: orders (1/1)",
                    "taskmanager-1",
                    false)))
        .lastCheckpoints(
            List.of(
                new CheckpointInfo(
                    10,
                    "COMPLETED",
                    START.plusSeconds(20),
                    START.plusSeconds(21),
                    "file:/srv/lab/chk-10",
                    null,
                    Duration.ofMillis(12),
                    false),
                new CheckpointInfo(
                    11,
                    "FAILED",
                    START.plusSeconds(25),
                    null,
                    null,
                    "CHECKPOINT_DECLINED",
                    null,
                    false)))
        .lastSnapshots(List.of(snapshot("orders_current", 20)))
        .sourcePosition(new SourcePosition("mysql-bin.000003", 4711, 2, "uuid:1-42"))
        .detail("restart_count", 3)
        .detail("pending_events", List.of(101L, 102L))
        .build();
  }

  /** Checkpoint pressure: durations at baseline and under a burst, the lag and how it drained. */
  static ExerciseRecord pressure() {
    Instant start = START.plusSeconds(60);
    return ExerciseRecord.builder("checkpoint-pressure", start)
        .figure("checkpoint_p50_ms_baseline", 55)
        .figure("checkpoint_max_ms_baseline", 71)
        .figure("checkpoint_p50_ms_pressure", 8_410)
        .figure("checkpoint_max_ms_pressure", 19_022)
        .figure("alignment_max_ms", 18_870)
        .figure("failed_checkpoints", 0)
        .figure("max_lag_events", 41_250)
        .figure("drain_ms", 23_400)
        .fact("throttle", "200 events/s per subtask")
        .fact("checkpoint_timeout", "60 s")
        .point("lag_events", 0, 0)
        .point("checkpoint_ms", 0, 55)
        .point("lag_events", 5_000, 41_250)
        .point("checkpoint_ms", 21_000, 19_022)
        .point("lag_events", 28_400, 0)
        .build(start.plusMillis(28_400));
  }

  /** Compaction while streaming: file counts before and after, the snapshots, one conflict. */
  static ExerciseRecord compaction() {
    Instant start = START.plusSeconds(90);
    return ExerciseRecord.builder("compaction", start)
        .figure("data_files_before", 48)
        .figure("data_files_after", 4)
        .figure("delete_files_before", 17)
        .figure("delete_files_after", 0)
        .figure("records", 14)
        .fact("snapshot_before", "4061448876306798218")
        .fact("snapshot_after", "4061448876306798230")
        .fact("conflicts", "1: CommitFailedException, retried with useStartingSequenceNumber")
        .build(start.plusSeconds(12));
  }

  static SnapshotInfo snapshot(String table, long seconds) {
    return new SnapshotInfo(
        table,
        4061448876306798208L + seconds,
        START.plusSeconds(seconds),
        "overwrite",
        "51dd090a",
        seconds / 2);
  }

  /** A passing record with every section filled. */
  static RunRecord full() {
    return fullBuilder().build();
  }

  /** The full record with a second fault that was skipped: inconclusive, never passed. */
  static RunRecord withSkippedFault() {
    return fullBuilder().fault(skippedFault()).build();
  }

  private static RunRecord.Builder fullBuilder() {
    return RunRecord.builder(RUN_ID, START)
        .finishedAt(START.plusSeconds(117))
        .gitSha("103ecd1eb5f9")
        .command(List.of("reliability-lab", "run", "--pipeline", "broker", "--fault", "poison"))
        .environment(environment())
        .stackVersion("flink", "1.20.3")
        .stackVersion("iceberg", "1.10.0")
        .stackVersion("debezium", "3.5.0.Final")
        .scenario(
            ScenarioInfo.of("broker", "poison-dlq", 304, 12, 2)
                .withVariant("non-avro")
                .withWorkloadDigest(
                    "0f5e8d5ab5bd2c61b6b1b5a02e8f4c2d5f8a0f7d3f1c8f37a0f5b3f2f1e0d9c8")
                .withBroker("broker.cdc_lab.orders", "broker.cdc_lab.orders.dlq", "lab-304"))
        .configuration("restart-strategy", "fixed-delay(3, 1 s)")
        .configuration("execution.checkpointing.interval", "1 s")
        .configuration("execution.checkpointing.timeout", "10 s")
        .configuration("execution.checkpointing.tolerable-failed-checkpoints", "2")
        .configuration("delivery.semantics", "AT_LEAST_ONCE")
        .configuration("sink", "iceberg-flink-1.20 1.10.0 (v2, upsert)")
        .configuration("debezium.offset.flush.interval.ms", "200")
        .fault(firedFault())
        .exercise(pressure())
        .exercise(compaction())
        .baselineLinkage(linkage("baseline", 2, 0))
        .repairLinkage(linkage("repair", 11, 1))
        .finalLinkage(linkage("final", 22, 2))
        .check(snapshotDiff())
        .check(eventIdAudit())
        .snapshot(snapshot("orders_current", 10))
        .snapshot(snapshot("orders_changelog", 10))
        .sourcePosition(SourcePosition.of("mysql-bin.000003", 9001, 0))
        .dlqRecord(dlqRecord())
        .quarantine(quarantine())
        .diagnostics(diagnostics())
        .timing("baseline", Duration.ofMillis(4200))
        .timing("recovery", Duration.ofMillis(6000))
        .timing("final-checks", Duration.ofMillis(900))
        .snapshotDiffCount(0)
        .claimBoundary(
            "Shows that one poison record on the broker pipeline is quarantined and repaired with"
                + " the current table equal to the source; does not show behaviour under"
                + " several brokers or real network partitions.")
        .logs(Path.of("logs", RUN_ID + ".log"));
  }

  static final String HAZARD =
      "apache/iceberg#10892: silent data loss restoring from an older savepoint";

  /**
   * A savepoint-restore run numbered {@code n} with one check of {@code check}'s verdict and one
   * fault of {@code status}, stopped by {@code error} if one is given.
   */
  static RunRecord savepointRun(
      int n, @Nullable String hazard, Verdict check, FaultStatus status, @Nullable String error) {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-1-savepoint-restore",
            "savepoint-restore",
            new FaultPosition.AtCheckpoint(4),
            Map.of("restore", "older"));
    Instant injected = START.plusSeconds(20);
    FaultEvidence evidence =
        switch (status) {
          case FIRED ->
              new FaultEvidence(
                  spec.id(),
                  spec.fault(),
                  status,
                  injected,
                  injected.plusMillis(300),
                  "stopped with savepoint 4, restored savepoint 2",
                  Map.of("savepoint", "2"),
                  List.of("job 51dd090a restored from savepoint 2"),
                  "");
          case SKIPPED -> FaultEvidence.skipped(spec, injected, "the pipeline has no JobControl");
          case NOT_PROVEN, ARMED ->
              new FaultEvidence(
                  spec.id(),
                  spec.fault(),
                  status,
                  injected,
                  null,
                  "stop-with-savepoint",
                  Map.of(),
                  List.of(),
                  "the job never restored");
        };
    CheckResult result =
        switch (check) {
          case PASSED -> snapshotDiff();
          case FAILED ->
              CheckResult.failed(
                  "snapshot-diff",
                  "3 rows lost after restoring savepoint 2",
                  Evidence.builder().count("missing", 3).build());
          case INCONCLUSIVE -> CheckResult.missingInput("snapshot-diff", "orders_current");
        };
    return RunRecord.builder(String.format("20260820T1318%02dZ-0000abcd", n), START)
        .finishedAt(START.plusSeconds(60))
        .environment(environment())
        .scenario(
            ScenarioInfo.of("direct", "savepoint-restore", 42, 100, 50)
                .withVariant(hazard == null ? "default" : "older-savepoint")
                .withKnownHazard(hazard))
        .fault(FaultRecord.of(spec, evidence, null))
        .check(result)
        .error(error)
        .snapshotDiffCount(check == Verdict.FAILED ? 3 : 0)
        .claimBoundary("Shows whether restoring an older savepoint loses rows.")
        .build();
  }

  /** A record with only what every record must have. */
  static RunRecord minimal() {
    return RunRecord.builder("20260820T140000Z-00000001", START)
        .finishedAt(START)
        .environment(environment())
        .scenario(ScenarioInfo.of("direct", "no-fault", 1, 0, 0))
        .claimBoundary("Shows nothing: no check was run.")
        .build();
  }
}
