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

  /** A builder for the recovery from a fault that took effect at {@code faultAt}. */
  public static Builder builder(Instant faultAt) {
    return new Builder(faultAt);
  }

  /**
   * No recovery to await: the fault was skipped (or not injected) for {@code reason}, which the
   * details keep under {@code skipped}.
   */
  public static RecoveryEvidence skipped(Instant faultAt, String reason) {
    return builder(faultAt).detail("skipped", reason).build();
  }

  /** Fault to first sink commit after it, the figure a user cares about. */
  public @Nullable Duration timeToFirstCommit() {
    return firstCommitAt == null ? null : Duration.between(faultAt, firstCommitAt);
  }

  /**
   * Collects {@link RecoveryEvidence}. What was not observed stays unset; the evidence is {@link
   * RecoveryEvidence#recovered() recovered} exactly when the running time, a first checkpoint and a
   * first commit were all given.
   */
  public static final class Builder {
    private final Instant faultAt;
    private @Nullable Instant runningAt;
    private @Nullable Long firstCheckpointId;
    private @Nullable Instant firstCheckpointAt;
    private @Nullable Long firstCommitSnapshotId;
    private @Nullable Instant firstCommitAt;
    private long restarts;
    private final Map<String, String> details = new LinkedHashMap<>();

    private Builder(Instant faultAt) {
      this.faultAt = Objects.requireNonNull(faultAt, "faultAt");
    }

    /** When the job was running again. */
    public Builder runningAt(Instant at) {
      this.runningAt = Objects.requireNonNull(at, "runningAt");
      return this;
    }

    /** The first checkpoint completed after the fault, and when it completed. */
    public Builder firstCheckpoint(long checkpointId, Instant completedAt) {
      this.firstCheckpointId = checkpointId;
      this.firstCheckpointAt = Objects.requireNonNull(completedAt, "completedAt");
      return this;
    }

    /** The first sink snapshot committed after the fault, and when it was committed. */
    public Builder firstCommit(long snapshotId, Instant committedAt) {
      this.firstCommitSnapshotId = snapshotId;
      this.firstCommitAt = Objects.requireNonNull(committedAt, "committedAt");
      return this;
    }

    /** How many restarts the fault caused (0 unless given). */
    public Builder restarts(long count) {
      this.restarts = count;
      return this;
    }

    /** One more observation; a key given twice keeps the last value. */
    public Builder detail(String key, String value) {
      details.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Several details, in their iteration order. */
    public Builder details(Map<String, String> more) {
      more.forEach(this::detail);
      return this;
    }

    public RecoveryEvidence build() {
      boolean recovered = runningAt != null && firstCheckpointAt != null && firstCommitAt != null;
      return new RecoveryEvidence(
          recovered,
          faultAt,
          runningAt,
          firstCheckpointId,
          firstCheckpointAt,
          firstCommitSnapshotId,
          firstCommitAt,
          restarts,
          details);
    }
  }
}
