package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the lab sees of a pipeline at one moment, before the fault (the baseline) or while waiting
 * for proof: the material every {@link ProofRule} judges. {@link PipelineView#observe()} takes one;
 * a proof rule's unit test builds them:
 *
 * <pre>{@code
 * Observation baseline = Observation.builder(t0, "job-1").restartCount(0).build();
 * Observation now = Observation.builder(t1, "job-1").restartCount(1).pointFiredAt(t1).build();
 * ProofVerdict verdict = rule.judge(baseline, now);
 * }</pre>
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
@API(status = EXPERIMENTAL)
public record Observation(
    Instant at,
    String jobId,
    JobState state,
    long restartCount,
    List<JobFailure> exceptionHistory,
    List<CheckpointInfo> checkpoints,
    @Nullable List<String> taskManagers,
    @Nullable List<SnapshotInfo> snapshots,
    @Nullable Instant pointFiredAt) {

  public Observation {
    exceptionHistory = List.copyOf(exceptionHistory);
    checkpoints = List.copyOf(checkpoints);
    taskManagers = taskManagers == null ? null : List.copyOf(taskManagers);
    snapshots = snapshots == null ? null : List.copyOf(snapshots);
  }

  /**
   * A builder for an observation of job {@code jobId} at {@code at}: {@link JobState#RUNNING}, no
   * restarts, failures or checkpoints, and no TaskManagers, snapshots or fault point shown.
   */
  public static Builder builder(Instant at, String jobId) {
    return new Builder(at, jobId);
  }

  /** The newest snapshot, if any is visible. */
  public @Nullable SnapshotInfo latestSnapshot() {
    return snapshots == null || snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1);
  }

  /** The highest committed checkpoint id any visible snapshot carries, or -1. */
  public long maxCommittedCheckpointId() {
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
  public long latestCheckpointId() {
    return checkpoints.stream().mapToLong(CheckpointInfo::id).max().orElse(0);
  }

  /** Collects an {@link Observation}. */
  public static final class Builder {
    private final Instant at;
    private final String jobId;
    private JobState state = JobState.RUNNING;
    private long restartCount;
    private List<JobFailure> exceptionHistory = List.of();
    private List<CheckpointInfo> checkpoints = List.of();
    private @Nullable List<String> taskManagers;
    private @Nullable List<SnapshotInfo> snapshots;
    private @Nullable Instant pointFiredAt;

    private Builder(Instant at, String jobId) {
      this.at = Objects.requireNonNull(at, "at");
      this.jobId = Objects.requireNonNull(jobId, "jobId");
    }

    public Builder state(JobState value) {
      this.state = Objects.requireNonNull(value, "state");
      return this;
    }

    public Builder restartCount(long value) {
      this.restartCount = value;
      return this;
    }

    /** The job's exception history, oldest first. */
    public Builder exceptionHistory(List<JobFailure> value) {
      this.exceptionHistory = Objects.requireNonNull(value, "exceptionHistory");
      return this;
    }

    /** The job's recent checkpoints, oldest first. */
    public Builder checkpoints(List<CheckpointInfo> value) {
      this.checkpoints = Objects.requireNonNull(value, "checkpoints");
      return this;
    }

    /** The TaskManagers running the job's tasks; null when the pipeline does not show them. */
    public Builder taskManagers(@Nullable List<String> value) {
      this.taskManagers = value;
      return this;
    }

    /** The current table's snapshots, oldest first; null when the pipeline does not show them. */
    public Builder snapshots(@Nullable List<SnapshotInfo> value) {
      this.snapshots = value;
      return this;
    }

    /** When the armed fault point fired; null when it did not (or the pipeline has none). */
    public Builder pointFiredAt(@Nullable Instant value) {
      this.pointFiredAt = value;
      return this;
    }

    public Observation build() {
      return new Observation(
          at,
          jobId,
          state,
          restartCount,
          exceptionHistory,
          checkpoints,
          taskManagers,
          snapshots,
          pointFiredAt);
    }
  }
}
