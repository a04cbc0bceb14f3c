package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.secret.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the lab saw when a wait timed out: the job's state, its exception history, the last
 * checkpoints and snapshots and the source position — enough to tell a slow pipeline from a stuck
 * one without rerunning. Secrets in messages and details are masked.
 *
 * <p>{@code Diagnostics.builder("no checkpoint within 60 s after the fault", now)
 * .jobState(JobState.RESTARTING).exceptionHistory(job.exceptionHistory()).build()}
 *
 * @param reason what was awaited and why the dump was written
 * @param capturedAt when the dump was taken
 * @param jobState the job's state, if it could be read
 * @param exceptionHistory the job's recent failures, newest last
 * @param lastCheckpoints the most recent checkpoints
 * @param lastSnapshots the most recent sink snapshots
 * @param sourcePosition the source position reached by the sink, if known
 * @param details anything else captured (free form)
 */
@API(status = STABLE)
public record Diagnostics(
    String reason,
    Instant capturedAt,
    @Nullable JobState jobState,
    List<JobFailure> exceptionHistory,
    List<CheckpointInfo> lastCheckpoints,
    List<SnapshotInfo> lastSnapshots,
    @Nullable SourcePosition sourcePosition,
    Map<String, @Nullable Object> details) {

  public Diagnostics {
    reason = Redactor.redact(Objects.requireNonNull(reason, "reason"));
    Objects.requireNonNull(capturedAt, "capturedAt");
    exceptionHistory =
        RecordRedaction.each(List.copyOf(exceptionHistory), RecordRedaction::failure);
    lastCheckpoints =
        RecordRedaction.each(List.copyOf(lastCheckpoints), RecordRedaction::checkpoint);
    lastSnapshots = List.copyOf(lastSnapshots);
    details = FreeMaps.freeze(details);
  }

  /** A builder for a dump taken at {@code capturedAt} because of {@code reason}. */
  public static Builder builder(String reason, Instant capturedAt) {
    return new Builder(reason, capturedAt);
  }

  /** Collects a diagnostic dump piece by piece; what could not be read is left out. */
  public static final class Builder {
    private final String reason;
    private final Instant capturedAt;
    private @Nullable JobState jobState;
    private final List<JobFailure> exceptionHistory = new ArrayList<>();
    private final List<CheckpointInfo> lastCheckpoints = new ArrayList<>();
    private final List<SnapshotInfo> lastSnapshots = new ArrayList<>();
    private @Nullable SourcePosition sourcePosition;
    private final Map<String, @Nullable Object> details = new LinkedHashMap<>();

    private Builder(String reason, Instant capturedAt) {
      this.reason = Objects.requireNonNull(reason, "reason");
      this.capturedAt = Objects.requireNonNull(capturedAt, "capturedAt");
    }

    public Builder jobState(@Nullable JobState state) {
      this.jobState = state;
      return this;
    }

    public Builder exceptionHistory(List<JobFailure> failures) {
      exceptionHistory.addAll(failures);
      return this;
    }

    public Builder lastCheckpoints(List<CheckpointInfo> checkpoints) {
      lastCheckpoints.addAll(checkpoints);
      return this;
    }

    public Builder lastSnapshots(List<SnapshotInfo> snapshots) {
      lastSnapshots.addAll(snapshots);
      return this;
    }

    public Builder sourcePosition(@Nullable SourcePosition position) {
      this.sourcePosition = position;
      return this;
    }

    /** A free-form detail: a text, number, boolean, list or map. */
    public Builder detail(String key, @Nullable Object value) {
      details.put(Objects.requireNonNull(key, "key"), value);
      return this;
    }

    public Diagnostics build() {
      return new Diagnostics(
          reason,
          capturedAt,
          jobState,
          exceptionHistory,
          lastCheckpoints,
          lastSnapshots,
          sourcePosition,
          details);
    }
  }
}
