package io.reliabilitylab.faults;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a run of {@code task-exception:snapshot-splits} reached the trigger of
 * apache/flink-cdc#1061: a checkpoint completed while the source was between two chunks of its
 * snapshot, and the failure came after it, still in the snapshot phase. The job is then restored
 * from that checkpoint with some chunks finished and others to read again; a chunk whose rows
 * crossed that checkpoint would be read again and its rows duplicated. Read from the changelog's
 * commits before the failure: the snapshot rows they hold are the rows emitted before them.
 */
final class SnapshotSplitHazard {

  /** The upstream issue this scenario guards against regressing, and the pinned fix. */
  static final String ISSUE =
      "apache/flink-cdc#1061 (fixed by #1505 in Flink CDC 2.3.0, so in the pinned 3.5.0: a"
          + " snapshot chunk's rows are emitted in one batch, so no checkpoint falls inside a"
          + " chunk; unless scan.incremental.snapshot.backfill.skip is set)";

  private SnapshotSplitHazard() {}

  /**
   * Details for the run record: the last checkpoint the changelog committed before the failure, the
   * snapshot rows it holds, and whether that is the trigger. Read from the table's commits, not the
   * job's checkpoint history (ten entries long, gone by the time the lab looks on a slow source): a
   * checkpoint the sink committed had completed, and the job restores from it or from a later one,
   * completed before the failure as well.
   */
  static Map<String, String> details(
      TableAccess tables, String faultId, Observation afterFailure, int splitSize, long failedAtRow)
      throws Exception {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("upstream_regression", ISSUE);
    details.put("snapshot_split_size", Integer.toString(splitSize));
    details.put("failed_at_snapshot_row", Long.toString(failedAtRow));
    Optional<Instant> failedAt =
        FaultIds.failuresCarrying(faultId, afterFailure.exceptionHistory()).stream()
            .map(JobFailure::at)
            .min(Comparator.naturalOrder());
    if (failedAt.isEmpty()) {
      details.put("hazard_reached", "unknown: the job's failure is not in its exception history");
      return details;
    }
    details.put("failed_at", failedAt.get().toString());
    Optional<SnapshotInfo> committed =
        tables.snapshots(tables.changelogTable()).stream()
            .filter(s -> s.committedCheckpointId() != null)
            .filter(s -> !s.committedAt().isAfter(failedAt.get()))
            .reduce((first, second) -> second);
    if (committed.isEmpty()) {
      details.put(
          "hazard_reached",
          "no: the changelog committed no checkpoint before the failure at " + failedAt.get());
      return details;
    }
    long checkpoint = Objects.requireNonNull(committed.get().committedCheckpointId());
    long rows = snapshotRows(tables, committed.get().snapshotId());
    details.put("checkpoint_committed_before_failure", Long.toString(checkpoint));
    details.put("snapshot_rows_committed_before_failure", Long.toString(rows));
    details.put(
        "hazard_reached",
        rows > 0
            ? "yes: checkpoint "
                + checkpoint
                + " completed and was committed after "
                + rows
                + " snapshot rows (chunks of "
                + splitSize
                + "), before row "
                + failedAtRow
                + " where the job failed; the job was restored from it or a later one, in the"
                + " middle of the snapshot"
            : "no: checkpoint "
                + checkpoint
                + ", the last committed before the failure, holds no snapshot row");
    return details;
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
