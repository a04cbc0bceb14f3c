package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.BrokerFixture.changed;
import static io.reliabilitylab.checks.BrokerFixture.changedLast;
import static io.reliabilitylab.checks.BrokerFixture.withCheckpoint;
import static io.reliabilitylab.checks.BrokerFixture.withOffset;
import static io.reliabilitylab.checks.BrokerFixture.withOffsets;
import static io.reliabilitylab.checks.BrokerFixture.withSnapshot;
import static io.reliabilitylab.checks.BrokerFixture.withSnapshots;
import static io.reliabilitylab.checks.BrokerFixture.withTopic;

import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.LinkageRecord.CheckpointRef;
import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import io.reliabilitylab.spi.check.LinkageRecord.SnapshotRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One way linkage records break, applied to a faithful sequence; {@code pick} chooses the record,
 * partition or table and the size of the change, so that a property can vary it. Each names the
 * sample kind the check must report.
 */
public enum LinkageDefect {
  /** Offsets deliberately left unconsumed: the last record shows lag on one partition. */
  LAG_LEFT("lag", true, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            int index = pick % r.offsets().size();
            PartitionOffset o = r.offsets().get(index);
            return withOffset(
                r,
                index,
                new PartitionOffset(
                    o.partition(), o.committedOffset(), o.logEndOffset() + 1 + pick));
          });
    }
  },

  /** The last checkpoint failed. */
  CHECKPOINT_FAILED("checkpoint_not_completed", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            CheckpointRef c = Objects.requireNonNull(r.checkpoint());
            return withCheckpoint(r, new CheckpointRef(c.id(), "FAILED", null));
          });
    }
  },

  /** No checkpoint was observed at the end. */
  NO_CHECKPOINT("no_checkpoint", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(records, r -> withCheckpoint(r, null));
    }
  },

  /** One table's last snapshot was committed by an older checkpoint than the last one. */
  SNAPSHOT_FROM_OLDER_CHECKPOINT("snapshot_not_from_checkpoint", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            String table = table(r, pick);
            SnapshotRef s = r.snapshots().get(table);
            long older = Objects.requireNonNull(r.checkpoint()).id() - 1 - pick % 3;
            return withSnapshot(r, table, new SnapshotRef(s.snapshotId(), s.flinkJobId(), older));
          });
    }
  },

  /** One table's last snapshot carries no committing checkpoint. */
  SNAPSHOT_WITHOUT_CHECKPOINT("snapshot_without_checkpoint", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            String table = table(r, pick);
            SnapshotRef s = r.snapshots().get(table);
            return withSnapshot(r, table, new SnapshotRef(s.snapshotId(), s.flinkJobId(), null));
          });
    }
  },

  /** One table's last snapshot names no Flink job. */
  SNAPSHOT_WITHOUT_JOB("snapshot_without_job", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            String table = table(r, pick);
            SnapshotRef s = r.snapshots().get(table);
            return withSnapshot(
                r, table, new SnapshotRef(s.snapshotId(), null, s.committedCheckpointId()));
          });
    }
  },

  /** No snapshot was observed at the end. */
  NO_SNAPSHOTS("no_snapshots", false, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(records, r -> withSnapshots(r, Map.of()));
    }
  },

  /** A later record's committed offset is below an earlier one's. */
  OFFSET_REGRESSED("offset_regressed", true, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      int at = later(records, pick);
      return changed(
          records,
          at,
          r -> {
            int index = pick % r.offsets().size();
            PartitionOffset o = r.offsets().get(index);
            long before = previous(records.get(at - 1), o.partition()).committedOffset();
            // before >= 1 in every faithful sequence, so this stays a valid offset
            long back = before - 1 - pick % before;
            return withOffset(r, index, new PartitionOffset(o.partition(), back, o.logEndOffset()));
          });
    }
  },

  /** A later record's log-end offset is below an earlier one's: the broker lost records. */
  LOG_END_REGRESSED("log_end_regressed", true, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      int at = later(records, pick);
      return changed(
          records,
          at,
          r -> {
            int index = pick % r.offsets().size();
            PartitionOffset o = r.offsets().get(index);
            long before = previous(records.get(at - 1), o.partition()).logEndOffset();
            long back = before - 1 - pick % before;
            return withOffset(
                r,
                index,
                new PartitionOffset(o.partition(), Math.min(o.committedOffset(), back), back));
          });
    }
  },

  /** A committed offset beyond the log end: records consumed and then lost by the log. */
  OFFSET_BEYOND_LOG_END("offset_beyond_log_end", true, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(
          records,
          pick % records.size(),
          r -> {
            int index = pick % r.offsets().size();
            PartitionOffset o = r.offsets().get(index);
            return withOffset(
                r,
                index,
                new PartitionOffset(o.partition(), o.logEndOffset() + 1 + pick, o.logEndOffset()));
          });
    }
  },

  /** A negative committed offset: none was committed. */
  INVALID_OFFSET("invalid_offset", true, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(
          records,
          pick % records.size(),
          r -> {
            int index = pick % r.offsets().size();
            PartitionOffset o = r.offsets().get(index);
            return withOffset(r, index, new PartitionOffset(o.partition(), -1, o.logEndOffset()));
          });
    }
  },

  /** One record has a topic but no offsets: nothing was observed. */
  NO_OFFSETS("no_offsets", true, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(records, pick % records.size(), r -> withOffsets(r, List.of()));
    }
  },

  /** One partition is listed twice in a record. */
  DUPLICATE_PARTITION("duplicate_partition", true, false) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(
          records,
          pick % records.size(),
          r -> {
            List<PartitionOffset> offsets = new ArrayList<>(r.offsets());
            offsets.add(offsets.get(pick % offsets.size()));
            return withOffsets(r, offsets);
          });
    }
  },

  /** A partition observed earlier is absent at the end (needs two partitions). */
  PARTITION_MISSING("partition_missing", true, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changedLast(
          records,
          r -> {
            List<PartitionOffset> offsets = new ArrayList<>(r.offsets());
            offsets.remove(pick % offsets.size());
            return withOffsets(r, offsets);
          });
    }
  },

  /** A later record reads another topic. */
  TOPIC_CHANGED("topic_changed", true, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(
          records, later(records, pick), r -> withTopic(r, r.topic() + ".v2", r.consumerGroup()));
    }
  },

  /** A later record shows another consumer group's offsets. */
  CONSUMER_GROUP_CHANGED("consumer_group_changed", true, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      return changed(
          records, later(records, pick), r -> withTopic(r, r.topic(), r.consumerGroup() + "-2"));
    }
  },

  /** A later record's checkpoint id is below an earlier one's. */
  CHECKPOINT_REGRESSED("checkpoint_regressed", false, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      int at = later(records, pick);
      long before = Objects.requireNonNull(records.get(at - 1).checkpoint()).id();
      return changed(
          records,
          at,
          r -> {
            CheckpointRef c = Objects.requireNonNull(r.checkpoint());
            return withCheckpoint(
                r, new CheckpointRef(before - 1 - pick % 3, c.status(), c.externalPath()));
          });
    }
  },

  /** A later record's table was committed by an older checkpoint than an earlier one's. */
  SNAPSHOT_CHECKPOINT_REGRESSED("snapshot_checkpoint_regressed", false, true) {
    @Override
    List<LinkageRecord> apply(List<LinkageRecord> records, int pick) {
      int at = later(records, pick);
      return changed(
          records,
          at,
          r -> {
            String table = table(r, pick);
            SnapshotRef s = r.snapshots().get(table);
            long before =
                Objects.requireNonNull(
                    records.get(at - 1).snapshots().get(table).committedCheckpointId());
            return withSnapshot(
                r, table, new SnapshotRef(s.snapshotId(), s.flinkJobId(), before - 1 - pick % 3));
          });
    }
  };

  private final String kind;
  private final boolean needsOffsets;
  private final boolean needsTwoRecords;

  LinkageDefect(String kind, boolean needsOffsets, boolean needsTwoRecords) {
    this.kind = kind;
    this.needsOffsets = needsOffsets;
    this.needsTwoRecords = needsTwoRecords;
  }

  /** The sample kind the check must report for this defect. */
  public String kind() {
    return kind;
  }

  /** Whether this defect applies to these faithful records. */
  public boolean appliesTo(List<LinkageRecord> records) {
    LinkageRecord last = records.get(records.size() - 1);
    if (needsOffsets && last.offsets().isEmpty()) {
      return false;
    }
    if (this == PARTITION_MISSING && last.offsets().size() < 2) {
      return false;
    }
    return !needsTwoRecords || records.size() >= 2;
  }

  /** The records with this defect; {@code pick >= 0} chooses where and how much. */
  abstract List<LinkageRecord> apply(List<LinkageRecord> records, int pick);

  /** The records with this defect, at the first place and the smallest change. */
  public List<LinkageRecord> apply(List<LinkageRecord> records) {
    return apply(records, 0);
  }

  private static int later(List<LinkageRecord> records, int pick) {
    return 1 + pick % (records.size() - 1);
  }

  private static String table(LinkageRecord record, int pick) {
    List<String> tables = new ArrayList<>(record.snapshots().keySet());
    return tables.get(pick % tables.size());
  }

  private static PartitionOffset previous(LinkageRecord record, int partition) {
    return record.offsets().stream()
        .filter(o -> o.partition() == partition)
        .findFirst()
        .orElseThrow();
  }
}
