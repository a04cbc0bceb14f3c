package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of the job.
 *
 * @param id the checkpoint id
 * @param status {@code COMPLETED}, {@code FAILED} or {@code IN_PROGRESS}
 * @param triggeredAt when it was triggered
 * @param finishedAt when it completed or failed
 * @param externalPath where it is stored, when retained
 * @param failureReason the engine's failure reason (Flink's {@code CheckpointFailureReason}), if it
 *     failed
 * @param alignmentDuration the longest barrier alignment, when known
 * @param savepoint whether this is a savepoint
 */
@API(status = STABLE)
public record CheckpointInfo(
    long id,
    String status,
    Instant triggeredAt,
    @Nullable Instant finishedAt,
    @Nullable String externalPath,
    @Nullable String failureReason,
    @Nullable Duration alignmentDuration,
    boolean savepoint) {

  public CheckpointInfo {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(triggeredAt, "triggeredAt");
  }

  public boolean completed() {
    return "COMPLETED".equals(status);
  }

  /** Trigger to finish, if finished. */
  public @Nullable Duration duration() {
    return finishedAt == null ? null : Duration.between(triggeredAt, finishedAt);
  }
}
