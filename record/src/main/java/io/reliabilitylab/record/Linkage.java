package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.reliabilitylab.spi.check.LinkageRecord;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The offsets ↔ checkpoint ↔ snapshot linkage observed at the three moments that matter: after the
 * baseline, after a repair (when a fault needed one) and at the end of the run.
 *
 * @param baseline after the baseline workload caught up
 * @param repair after a repair was replayed, before the source resumed
 * @param finalLinkage at the end of the run, written as {@code final}
 */
@API(status = STABLE)
public record Linkage(
    @Nullable LinkageRecord baseline,
    @Nullable LinkageRecord repair,
    @JsonProperty("final") @Nullable LinkageRecord finalLinkage) {

  /** No linkage observed (a pipeline without a broker or a checkpointed sink). */
  public static final Linkage NONE = new Linkage(null, null, null);
}
