package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.LinkageRecord.CheckpointRef;
import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import io.reliabilitylab.spi.check.LinkageRecord.SnapshotRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Linkage and dead-letter records of a broker run shaped like the recorded poison run: three
 * partitions, linkage at baseline, after repair and at the end, one quarantined poison message. The
 * contract tests share them, hence public.
 */
public final class BrokerFixture {

  public static final String TOPIC = "broker.cdc_lab.orders";
  public static final String DLQ_TOPIC = TOPIC + ".dlq";
  public static final String GROUP = "lab-broker-orders";
  public static final String JOB = "51dd090a3d2cca468fbda1469e6c4e76";
  public static final String CURRENT = "orders_current";
  public static final String CHANGELOG = "orders_changelog";

  /** SHA-256 of the poison payload (the payload itself never appears in a record). */
  public static final String POISON_SHA256 =
      "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

  static final Instant T0 = Instant.parse("2026-08-20T13:18:00Z");

  private BrokerFixture() {}

  // ---- linkage ----

  public static PartitionOffset offset(int partition, long committed, long logEnd) {
    return new PartitionOffset(partition, committed, logEnd);
  }

  public static CheckpointRef completed(long id) {
    return new CheckpointRef(id, "COMPLETED", "file:/checkpoints/" + JOB + "/chk-" + id);
  }

  public static SnapshotRef snapshot(long snapshotId, @Nullable Long committedBy) {
    return new SnapshotRef(snapshotId, JOB, committedBy);
  }

  /** Both tables committed by one checkpoint. */
  public static Map<String, SnapshotRef> tables(long checkpoint, long snapshotSeed) {
    Map<String, SnapshotRef> tables = new LinkedHashMap<>();
    tables.put(CURRENT, snapshot(snapshotSeed * 1000 + 1, checkpoint));
    tables.put(CHANGELOG, snapshot(snapshotSeed * 1000 + 2, checkpoint));
    return tables;
  }

  public static LinkageRecord record(
      String label,
      int second,
      String topic,
      List<PartitionOffset> offsets,
      @Nullable CheckpointRef checkpoint,
      Map<String, SnapshotRef> snapshots) {
    return new LinkageRecord(
        label,
        T0.plusSeconds(second),
        topic,
        topic.isEmpty() ? "" : GROUP,
        offsets,
        checkpoint,
        snapshots);
  }

  /** The recorded run's linkage: lag 0 each time, checkpoints 2, 11, 22 committing both tables. */
  public static List<LinkageRecord> faithfulLinkage() {
    return List.of(
        record(
            "baseline",
            0,
            TOPIC,
            List.of(offset(0, 3, 3), offset(1, 4, 4), offset(2, 5, 5)),
            completed(2),
            tables(2, 1)),
        record(
            "repair",
            30,
            TOPIC,
            List.of(offset(0, 3, 3), offset(1, 4, 4), offset(2, 7, 7)),
            completed(11),
            tables(11, 2)),
        record(
            "final",
            60,
            TOPIC,
            List.of(offset(0, 4, 4), offset(1, 4, 4), offset(2, 8, 8)),
            completed(22),
            tables(22, 3)));
  }

  /** A pipeline without a broker: no topic, no offsets, checkpoints and snapshots only. */
  public static List<LinkageRecord> directLinkage() {
    return List.of(
        record("baseline", 0, "", List.of(), completed(3), tables(3, 1)),
        record("final", 20, "", List.of(), completed(9), tables(9, 2)));
  }

  /** A copy with the record at {@code index} changed. */
  public static List<LinkageRecord> changed(
      List<LinkageRecord> records, int index, UnaryOperator<LinkageRecord> change) {
    List<LinkageRecord> copy = new ArrayList<>(records);
    copy.set(index, change.apply(copy.get(index)));
    return copy;
  }

  /** A copy with the last record changed. */
  public static List<LinkageRecord> changedLast(
      List<LinkageRecord> records, UnaryOperator<LinkageRecord> change) {
    return changed(records, records.size() - 1, change);
  }

  public static LinkageRecord withOffsets(LinkageRecord r, List<PartitionOffset> offsets) {
    return new LinkageRecord(
        r.label(),
        r.takenAt(),
        r.topic(),
        r.consumerGroup(),
        offsets,
        r.checkpoint(),
        r.snapshots());
  }

  public static LinkageRecord withOffset(LinkageRecord r, int index, PartitionOffset offset) {
    List<PartitionOffset> offsets = new ArrayList<>(r.offsets());
    offsets.set(index, offset);
    return withOffsets(r, offsets);
  }

  public static LinkageRecord withCheckpoint(LinkageRecord r, @Nullable CheckpointRef checkpoint) {
    return new LinkageRecord(
        r.label(),
        r.takenAt(),
        r.topic(),
        r.consumerGroup(),
        r.offsets(),
        checkpoint,
        r.snapshots());
  }

  public static LinkageRecord withSnapshot(LinkageRecord r, String table, SnapshotRef snapshot) {
    Map<String, SnapshotRef> snapshots = new LinkedHashMap<>(r.snapshots());
    snapshots.put(table, snapshot);
    return withSnapshots(r, snapshots);
  }

  public static LinkageRecord withSnapshots(LinkageRecord r, Map<String, SnapshotRef> snapshots) {
    return new LinkageRecord(
        r.label(),
        r.takenAt(),
        r.topic(),
        r.consumerGroup(),
        r.offsets(),
        r.checkpoint(),
        snapshots);
  }

  public static LinkageRecord withTopic(LinkageRecord r, String topic, String group) {
    return new LinkageRecord(
        r.label(), r.takenAt(), topic, group, r.offsets(), r.checkpoint(), r.snapshots());
  }

  // ---- dead-letter records ----

  /** The recorded run's quarantined poison message: original 2@5, DLQ 0@0. */
  public static DlqRecord poison() {
    return dlq(0, 2, 5, POISON_SHA256);
  }

  public static DlqRecord dlq(
      long dlqOffset, int originalPartition, long originalOffset, String sha) {
    return new DlqRecord(
        DLQ_TOPIC,
        0,
        dlqOffset,
        TOPIC,
        originalPartition,
        originalOffset,
        T0.toEpochMilli() + originalOffset,
        "com.fasterxml.jackson.core.JsonParseException",
        "Unexpected character ('#' (code 35)): expected a valid value",
        T0.plusSeconds(1),
        1,
        sha,
        71,
        true);
  }

  /** The same original quarantined again at another DLQ offset. */
  public static DlqRecord requarantined(DlqRecord r, long dlqOffset) {
    return new DlqRecord(
        r.topic(),
        r.partition(),
        dlqOffset,
        r.originalTopic(),
        r.originalPartition(),
        r.originalOffset(),
        r.originalTimestampMs(),
        r.errorType(),
        r.errorMessage(),
        r.quarantinedAt(),
        r.dlqSchemaVersion(),
        r.originalValueSha256(),
        r.originalValueLength(),
        r.originalBytesPreserved());
  }
}
