package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.LinkageRecord.CheckpointRef;
import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import io.reliabilitylab.spi.check.LinkageRecord.SnapshotRef;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * Checks that Kafka offsets, the Flink checkpoint and the Iceberg snapshots tell one story: at the
 * end everything in the topic was consumed and committed to the tables by the last checkpoint, and
 * no position went backwards on the way.
 *
 * <p><b>Compares</b> the {@link CheckContext#linkage() linkage records} in the order given (time
 * order, usually {@code baseline}, {@code repair}, {@code final}). The last record must show every
 * partition with lag 0 (committed offset equals log-end offset), a checkpoint with status {@code
 * COMPLETED}, and for every table a snapshot committed by exactly that checkpoint ({@code
 * flink.max-committed-checkpoint-id}) that names its Flink job. Across consecutive records: per
 * partition the committed and the log-end offset never decrease, the checkpoint id never decreases,
 * and neither does each table's committing checkpoint (a job restored from a checkpoint or a
 * savepoint continues its numbering); topic and consumer group stay the same. In every record,
 * offsets are non-negative, a committed offset is not beyond its log-end offset and each partition
 * appears once. A record with an empty topic (a pipeline without a broker) has no offsets to judge;
 * a record with a topic but no offsets observed nothing and fails. Facts: {@code linkage_1}, {@code
 * linkage_2}, ... (one line per record: label, time, per partition committed / log-end / lag,
 * checkpoint id and status, per table snapshot id and committing checkpoint), {@code final_label}
 * and {@code final_checkpoint_id}. Counts: {@code records}, {@code partitions} (in the last
 * record), {@code total_final_lag} and {@code violations}. Samples, one per violation, name the
 * record and partition or table; their kind names the rule broken: {@code lag}, {@code no_offsets},
 * {@code invalid_offset}, {@code offset_beyond_log_end}, {@code duplicate_partition}, {@code
 * partition_missing}, {@code offset_regressed}, {@code log_end_regressed}, {@code topic_changed},
 * {@code consumer_group_changed}, {@code no_checkpoint}, {@code checkpoint_not_completed}, {@code
 * checkpoint_regressed}, {@code no_snapshots}, {@code snapshot_without_checkpoint}, {@code
 * snapshot_not_from_checkpoint}, {@code snapshot_without_job}, {@code
 * snapshot_checkpoint_regressed}.
 *
 * <p><b>Passes</b> iff {@code violations} is 0, under either delivery semantics: at-least-once
 * delivery may repeat records but never leaves them unconsumed or moves a position back.
 *
 * <p><b>Inconclusive</b> when there are no linkage records. A pipeline that records none (the
 * direct pipeline does not, today) is therefore never judged passed by this check.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class OffsetCheckpointSnapshotLinkageCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "offset-checkpoint-snapshot-linkage";

  private static final String COMPLETED = "COMPLETED";

  public OffsetCheckpointSnapshotLinkageCheck() {}

  /** Runs only on a pipeline with a broker: its inputs come from there. */
  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(BrokerControl.class);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Checks Kafka offsets, Flink checkpoints and Iceberg snapshots agree: lag 0 at the end,"
        + " the tables committed by the last checkpoint, and no position moving backwards";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    List<LinkageRecord> records = context.linkage();
    if (records.isEmpty()) {
      return CheckResult.missingInput(NAME, "linkage record (linkage)");
    }
    try {
      return judge(records, context.sampleLimit());
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult judge(List<LinkageRecord> records, int sampleLimit) {
    Evidence.Builder evidence = Evidence.builder(sampleLimit);
    Violations violations = new Violations(evidence);
    for (int i = 0; i < records.size(); i++) {
      LinkageRecord record = records.get(i);
      evidence.fact("linkage_" + (i + 1), describe(record));
      checkOffsets(record, violations);
      if (i > 0) {
        compare(records.get(i - 1), record, violations);
      }
    }
    LinkageRecord last = records.get(records.size() - 1);
    FinalState state = checkFinal(last, records, violations);
    evidence.fact("final_label", last.label());
    if (last.checkpoint() != null) {
      evidence.fact("final_checkpoint_id", Long.toString(last.checkpoint().id()));
    }
    evidence
        .count("records", records.size())
        .count("partitions", state.partitions())
        .count("total_final_lag", state.totalLag())
        .count("violations", violations.count());
    if (violations.count() == 0) {
      return CheckResult.passed(NAME, passedSummary(last, state), evidence.build());
    }
    return CheckResult.failed(
        NAME,
        violations.count()
            + " linkage violations across "
            + records.size()
            + " records ("
            + String.join(", ", violations.kinds())
            + "); final lag "
            + state.totalLag(),
        evidence.build());
  }

  private static String passedSummary(LinkageRecord last, FinalState state) {
    CheckpointRef checkpoint = Objects.requireNonNull(last.checkpoint());
    String offsets =
        hasTopic(last)
            ? state.partitions() + " partitions of " + last.topic() + " consumed to lag 0, "
            : "no broker offsets (no topic), ";
    return offsets
        + "checkpoint "
        + checkpoint.id()
        + " completed and committed "
        + last.snapshots().size()
        + " tables at '"
        + last.label()
        + "'; nothing moved backwards";
  }

  /** Rules that hold within any one record. */
  private static void checkOffsets(LinkageRecord record, Violations violations) {
    if (!hasTopic(record)) {
      return;
    }
    if (record.offsets().isEmpty()) {
      violations.add(
          "no_offsets",
          record.label() + " " + record.topic(),
          "no partition offsets were observed for topic "
              + record.topic()
              + ", so nothing shows what was consumed");
      return;
    }
    TreeSet<Integer> seen = new TreeSet<>();
    for (PartitionOffset offset : record.offsets()) {
      String subject = partitionSubject(record, offset.partition());
      if (!seen.add(offset.partition())) {
        violations.add(
            "duplicate_partition",
            subject,
            "partition " + offset.partition() + " appears more than once in one observation");
      }
      if (offset.committedOffset() < 0 || offset.logEndOffset() < 0) {
        violations.add(
            "invalid_offset",
            subject,
            "committed offset "
                + offset.committedOffset()
                + " and log-end offset "
                + offset.logEndOffset()
                + " must both be >= 0 (a negative offset usually means none was committed)");
      } else if (offset.committedOffset() > offset.logEndOffset()) {
        violations.add(
            "offset_beyond_log_end",
            subject,
            "committed offset "
                + offset.committedOffset()
                + " is beyond the log-end offset "
                + offset.logEndOffset()
                + ": the log lost records after they were consumed");
      }
    }
  }

  /** Rules between two consecutive records: nothing moves backwards. */
  private static void compare(LinkageRecord before, LinkageRecord after, Violations violations) {
    String step = "'" + before.label() + "' -> '" + after.label() + "'";
    if (!before.topic().equals(after.topic())) {
      violations.add(
          "topic_changed",
          after.label(),
          "topic changed from '"
              + before.topic()
              + "' to '"
              + after.topic()
              + "' between "
              + step
              + ": offsets cannot be compared");
    } else if (!before.consumerGroup().equals(after.consumerGroup())) {
      violations.add(
          "consumer_group_changed",
          after.label(),
          "consumer group changed from '"
              + before.consumerGroup()
              + "' to '"
              + after.consumerGroup()
              + "' between "
              + step
              + ": committed offsets cannot be compared");
    } else if (hasTopic(after)) {
      SortedMap<Integer, PartitionOffset> earlier = byPartition(before);
      for (PartitionOffset now : byPartition(after).values()) {
        PartitionOffset then = earlier.get(now.partition());
        if (then == null) {
          continue;
        }
        String subject = partitionSubject(after, now.partition());
        if (now.committedOffset() < then.committedOffset()) {
          violations.add(
              "offset_regressed",
              subject,
              "committed offset went back from "
                  + then.committedOffset()
                  + " to "
                  + now.committedOffset()
                  + " between "
                  + step);
        }
        if (now.logEndOffset() < then.logEndOffset()) {
          violations.add(
              "log_end_regressed",
              subject,
              "log-end offset went back from "
                  + then.logEndOffset()
                  + " to "
                  + now.logEndOffset()
                  + " between "
                  + step
                  + ": the broker lost records");
        }
      }
    }
    CheckpointRef was = before.checkpoint();
    CheckpointRef is = after.checkpoint();
    if (was != null && is != null && is.id() < was.id()) {
      violations.add(
          "checkpoint_regressed",
          after.label() + " checkpoint",
          "checkpoint id went back from " + was.id() + " to " + is.id() + " between " + step);
    }
    for (Map.Entry<String, SnapshotRef> table : new TreeMap<>(after.snapshots()).entrySet()) {
      SnapshotRef then = before.snapshots().get(table.getKey());
      Long thenCheckpoint = then == null ? null : then.committedCheckpointId();
      Long nowCheckpoint = table.getValue().committedCheckpointId();
      if (thenCheckpoint != null && nowCheckpoint != null && nowCheckpoint < thenCheckpoint) {
        violations.add(
            "snapshot_checkpoint_regressed",
            after.label() + " " + table.getKey(),
            "the checkpoint that committed "
                + table.getKey()
                + " went back from "
                + thenCheckpoint
                + " to "
                + nowCheckpoint
                + " between "
                + step);
      }
    }
  }

  private record FinalState(long partitions, long totalLag) {}

  /** Rules for the last record: everything consumed, and committed by its checkpoint. */
  private static FinalState checkFinal(
      LinkageRecord last, List<LinkageRecord> records, Violations violations) {
    SortedMap<Integer, PartitionOffset> offsets = byPartition(last);
    long totalLag = 0;
    if (hasTopic(last)) {
      for (PartitionOffset offset : offsets.values()) {
        long lag = lag(offset);
        totalLag = lag > Long.MAX_VALUE - totalLag ? Long.MAX_VALUE : totalLag + lag;
        if (lag > 0) {
          violations.add(
              "lag",
              partitionSubject(last, offset.partition()),
              lag
                  + " records left unconsumed: committed offset "
                  + offset.committedOffset()
                  + ", log-end offset "
                  + offset.logEndOffset());
        }
      }
      TreeSet<Integer> missing = new TreeSet<>();
      for (LinkageRecord earlier : records) {
        if (earlier.topic().equals(last.topic())) {
          earlier.offsets().forEach(o -> missing.add(o.partition()));
        }
      }
      missing.removeAll(offsets.keySet());
      if (!offsets.isEmpty()) {
        for (int partition : missing) {
          violations.add(
              "partition_missing",
              partitionSubject(last, partition),
              "partition "
                  + partition
                  + " was observed earlier but not in the last record, so its lag is unknown");
        }
      }
    }
    CheckpointRef checkpoint = last.checkpoint();
    if (checkpoint == null) {
      violations.add(
          "no_checkpoint",
          last.label() + " checkpoint",
          "no Flink checkpoint was observed, so nothing shows the offsets and tables were committed");
    } else if (!COMPLETED.equalsIgnoreCase(checkpoint.status())) {
      violations.add(
          "checkpoint_not_completed",
          last.label() + " checkpoint " + checkpoint.id(),
          "the last checkpoint's status is '" + checkpoint.status() + "', not COMPLETED");
    }
    if (last.snapshots().isEmpty()) {
      violations.add(
          "no_snapshots",
          last.label() + " snapshots",
          "no Iceberg snapshot was observed, so nothing shows what the tables committed");
    }
    for (Map.Entry<String, SnapshotRef> table : new TreeMap<>(last.snapshots()).entrySet()) {
      SnapshotRef snapshot = table.getValue();
      String subject = last.label() + " " + table.getKey();
      Long committedBy = snapshot.committedCheckpointId();
      if (committedBy == null) {
        violations.add(
            "snapshot_without_checkpoint",
            subject,
            "snapshot "
                + snapshot.snapshotId()
                + " carries no flink.max-committed-checkpoint-id, so no checkpoint is known to"
                + " have committed it");
      } else if (checkpoint != null && committedBy != checkpoint.id()) {
        violations.add(
            "snapshot_not_from_checkpoint",
            subject,
            "snapshot "
                + snapshot.snapshotId()
                + " was committed by checkpoint "
                + committedBy
                + ", not by the "
                + (committedBy < checkpoint.id() ? "later " : "earlier ")
                + "checkpoint "
                + checkpoint.id()
                + " of this record");
      }
      String job = snapshot.flinkJobId();
      if (job == null || job.isBlank()) {
        violations.add(
            "snapshot_without_job",
            subject,
            "snapshot " + snapshot.snapshotId() + " names no Flink job (flink.job-id)");
      }
    }
    return new FinalState(hasTopic(last) ? offsets.size() : 0, totalLag);
  }

  private static long lag(PartitionOffset offset) {
    // Invalid or overtaken offsets are violations of their own; they add no lag.
    if (offset.committedOffset() < 0
        || offset.logEndOffset() < 0
        || offset.committedOffset() > offset.logEndOffset()) {
      return 0;
    }
    return offset.logEndOffset() - offset.committedOffset();
  }

  private static boolean hasTopic(LinkageRecord record) {
    return !record.topic().isBlank();
  }

  private static SortedMap<Integer, PartitionOffset> byPartition(LinkageRecord record) {
    SortedMap<Integer, PartitionOffset> map = new TreeMap<>();
    for (PartitionOffset offset : record.offsets()) {
      map.putIfAbsent(offset.partition(), offset);
    }
    return map;
  }

  private static String partitionSubject(LinkageRecord record, int partition) {
    return record.label() + " " + record.topic() + "/" + partition;
  }

  /** One line per record, e.g. {@code final at ...: orders p0 4/4 lag 0; checkpoint 22 ...}. */
  private static String describe(LinkageRecord record) {
    StringBuilder line = new StringBuilder(record.label()).append(" at ").append(record.takenAt());
    if (hasTopic(record)) {
      StringJoiner partitions = new StringJoiner(", ");
      for (PartitionOffset offset : byPartition(record).values()) {
        partitions.add(
            "p"
                + offset.partition()
                + " committed "
                + offset.committedOffset()
                + " log_end "
                + offset.logEndOffset()
                + " lag "
                + lag(offset));
      }
      line.append("; topic ")
          .append(record.topic())
          .append(" group ")
          .append(record.consumerGroup())
          .append(": ")
          .append(record.offsets().isEmpty() ? "no offsets" : partitions.toString());
    } else {
      line.append("; no topic");
    }
    CheckpointRef checkpoint = record.checkpoint();
    line.append("; checkpoint ")
        .append(checkpoint == null ? "none" : checkpoint.id() + " " + checkpoint.status());
    StringJoiner tables = new StringJoiner(", ");
    for (Map.Entry<String, SnapshotRef> table : new TreeMap<>(record.snapshots()).entrySet()) {
      SnapshotRef snapshot = table.getValue();
      tables.add(
          table.getKey()
              + " snapshot "
              + snapshot.snapshotId()
              + " by checkpoint "
              + (snapshot.committedCheckpointId() == null
                  ? "unknown"
                  : snapshot.committedCheckpointId()));
    }
    line.append("; ").append(record.snapshots().isEmpty() ? "no snapshots" : tables.toString());
    return line.toString();
  }

  /** Counts violations and keeps a capped sample of each, in the order found. */
  private static final class Violations {
    private final Evidence.Builder evidence;
    private final Set<String> kinds = new LinkedHashSet<>();
    private long count;

    Violations(Evidence.Builder evidence) {
      this.evidence = evidence;
    }

    void add(String kind, String subject, String note) {
      count++;
      kinds.add(kind);
      evidence.sample(EvidenceSample.of(kind, subject, note));
    }

    long count() {
      return count;
    }

    /** The kinds of violation found, in the order first found. */
    List<String> kinds() {
      return List.copyOf(kinds);
    }
  }
}
