package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The proof that the pipeline recovered after a fault: the job running again, a checkpoint
 * completed and a sink commit made after the fault.
 *
 * @param recovered whether all three happened before the deadline
 * @param faultAt when the fault took effect
 * @param runningAt when the job was running again
 * @param firstCheckpointId the first checkpoint completed after the fault
 * @param firstCheckpointAt when it completed
 * @param firstCommitSnapshotId the first sink snapshot committed after the fault
 * @param firstCommitAt when that snapshot was committed
 * @param restarts how many restarts the fault caused
 * @param details anything else observed, e.g. the new job id after a restore
 */
@API(status = STABLE)
public record RecoveryEvidence(
    boolean recovered,
    Instant faultAt,
    @Nullable Instant runningAt,
    @Nullable Long firstCheckpointId,
    @Nullable Instant firstCheckpointAt,
    @Nullable Long firstCommitSnapshotId,
    @Nullable Instant firstCommitAt,
    long restarts,
    Map<String, String> details) {

  public RecoveryEvidence {
    Objects.requireNonNull(faultAt, "faultAt");
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    if (recovered && (runningAt == null || firstCheckpointAt == null || firstCommitAt == null)) {
      throw new IllegalArgumentException(
          "Recovery is proven only by a running job, a checkpoint and a commit after the fault");
    }
  }

  /** Fault to first sink commit after it, the figure a user cares about. */
  public @Nullable Duration timeToFirstCommit() {
    return firstCommitAt == null ? null : Duration.between(faultAt, firstCommitAt);
  }
}
