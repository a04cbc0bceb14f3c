package io.reliabilitylab.faults;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the lab sees of a pipeline at one moment, before the fault (the baseline) or while waiting
 * for proof: the material every proof rule judges.
 *
 * @param at when it was observed, by the fault's clock
 * @param jobId the job's id
 * @param state the job's state
 * @param restartCount the job's restart count
 * @param exceptionHistory the job's exception history, oldest first
 * @param checkpoints the job's recent checkpoints, oldest first
 * @param taskManagers the TaskManagers running the job's tasks, when the pipeline shows them
 * @param snapshots the current table's snapshots, oldest first, when the pipeline shows them
 * @param pointFiredAt when the armed fault point fired, when the pipeline says so
 */
record Observation(
    Instant at,
    String jobId,
    JobState state,
    long restartCount,
    List<JobFailure> exceptionHistory,
    List<CheckpointInfo> checkpoints,
    @Nullable List<String> taskManagers,
    @Nullable List<SnapshotInfo> snapshots,
    @Nullable Instant pointFiredAt) {

  Observation {
    exceptionHistory = List.copyOf(exceptionHistory);
    checkpoints = List.copyOf(checkpoints);
    taskManagers = taskManagers == null ? null : List.copyOf(taskManagers);
    snapshots = snapshots == null ? null : List.copyOf(snapshots);
  }

  /** The newest snapshot, if any is visible. */
  @Nullable SnapshotInfo latestSnapshot() {
    return snapshots == null || snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1);
  }

  /** The highest committed checkpoint id any visible snapshot carries, or -1. */
  long maxCommittedCheckpointId() {
    if (snapshots == null) {
      return -1;
    }
    long max = -1;
    for (SnapshotInfo snapshot : snapshots) {
      Long id = snapshot.committedCheckpointId();
      if (id != null && id > max) {
        max = id;
      }
    }
    return max;
  }

  /** The highest checkpoint id seen, or 0 when none was taken yet. */
  long latestCheckpointId() {
    return checkpoints.stream().mapToLong(CheckpointInfo::id).max().orElse(0);
  }
}
