package io.reliabilitylab.faults;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a run of {@code task-exception:snapshot-splits} reached the trigger of
 * apache/flink-cdc#1061: a checkpoint completed while the source was between two chunks of its
 * snapshot, and the failure came after it, still in the snapshot phase. The job is then restored
 * from that checkpoint with some chunks finished and others to read again; a chunk whose rows
 * crossed that checkpoint would be read again and its rows duplicated. Read from the changelog's
 * commit of the restored checkpoint: the snapshot rows it holds are the rows emitted before it.
 */
final class SnapshotSplitHazard {

  /** The upstream issue this scenario guards against regressing, and the pinned fix. */
  static final String ISSUE =
      "apache/flink-cdc#1061 (fixed by #1505 in Flink CDC 2.3.0, so in the pinned 3.5.0: a"
          + " snapshot chunk's rows are emitted in one batch, so no checkpoint falls inside a"
          + " chunk; unless scan.incremental.snapshot.backfill.skip is set)";

  private SnapshotSplitHazard() {}

  /**
   * Details for the run record: the checkpoint the job was restored from, the snapshot rows it had
   * committed, and whether that is the trigger. {@code failedOver} is an observation soon after the
   * failure: its checkpoints must reach back to it.
   */
  static Map<String, String> details(
      TableAccess tables, String faultId, Observation failedOver, int splitSize, long failedAtRow)
      throws Exception {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("upstream_regression", ISSUE);
    details.put("snapshot_split_size", Integer.toString(splitSize));
    details.put("failed_at_snapshot_row", Long.toString(failedAtRow));
    Optional<Instant> failedAt =
        FaultIds.failuresCarrying(faultId, failedOver.exceptionHistory()).stream()
            .map(JobFailure::at)
            .min(Comparator.naturalOrder());
    if (failedAt.isEmpty()) {
      details.put("hazard_reached", "unknown: the job's failure is not in its exception history");
      return details;
    }
    boolean historyReachesBack =
        failedOver.checkpoints().stream()
            .anyMatch(c -> !c.triggeredAt().isAfter(failedAt.get().minusSeconds(1)));
    Optional<CheckpointInfo> restored =
        failedOver.checkpoints().stream()
            .filter(c -> "COMPLETED".equals(c.status()) && !c.savepoint())
            .filter(c -> c.finishedAt() != null && !c.finishedAt().isAfter(failedAt.get()))
            .max(Comparator.comparingLong(CheckpointInfo::id));
    if (restored.isEmpty() && !historyReachesBack) {
      details.put(
          "hazard_reached",
          "unknown: the job's checkpoint history no longer reaches back to the failure at "
              + failedAt.get());
      return details;
    }
    if (restored.isEmpty()) {
      details.put(
          "hazard_reached",
          "no: no checkpoint completed before the failure at "
              + failedAt.get()
              + ", so the job started its snapshot afresh");
      return details;
    }
    long checkpoint = restored.get().id();
    details.put("restored_checkpoint", Long.toString(checkpoint));
    Optional<SnapshotInfo> commit = commitOf(tables, checkpoint);
    if (commit.isEmpty()) {
      details.put(
          "hazard_reached",
          "unknown: the changelog table holds no commit of checkpoint " + checkpoint);
      return details;
    }
    long rows = snapshotRows(tables, commit.get().snapshotId());
    details.put("snapshot_rows_committed_by_restored_checkpoint", Long.toString(rows));
    details.put(
        "hazard_reached",
        rows > 0
            ? "yes: checkpoint "
                + checkpoint
                + " completed after "
                + rows
                + " snapshot rows (chunks of "
                + splitSize
                + ") and before row "
                + failedAtRow
                + ", where the job failed; it was restored from it in the middle of the snapshot"
            : "no: checkpoint "
                + checkpoint
                + " completed before the first snapshot row, so the restore started the"
                + " snapshot afresh");
    return details;
  }

  /** The changelog's latest commit at or before the checkpoint. */
  private static Optional<SnapshotInfo> commitOf(TableAccess tables, long checkpoint)
      throws Exception {
    List<SnapshotInfo> snapshots = tables.snapshots(tables.changelogTable());
    return snapshots.stream()
        .filter(s -> s.committedCheckpointId() != null && s.committedCheckpointId() <= checkpoint)
        .reduce((first, second) -> second);
  }

  private static long snapshotRows(TableAccess tables, long snapshotId) throws Exception {
    long rows = 0;
    try (CloseableIterator<ChangeEvent> events =
        tables.changelogAppended(null, snapshotId).open()) {
      while (events.hasNext()) {
        if (events.next().op() == ChangeOp.READ) {
          rows++;
        }
      }
    }
    return rows;
  }
}
