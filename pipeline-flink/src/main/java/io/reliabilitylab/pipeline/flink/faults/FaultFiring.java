package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How an armed fault point fired: the evidence the switchboard keeps for a fault id. Flink's
 * checkpoint statistics keep only a failed checkpoint's top message, not the cause that carries the
 * fault id, so {@code checkpointId} is what ties a checkpoint-storage fault to its failed
 * checkpoint.
 *
 * @param faultId the fault's id
 * @param point the point that fired
 * @param position the armed position
 * @param action what the point did
 * @param at when it fired
 * @param checkpointId the checkpoint it fired at, when the point knows it (a checkpoint file, a
 *     snapshot, the commit of a checkpoint); null for an element or a split request
 * @param process the JVM that fired, as {@code pid@host}
 */
@API(status = EXPERIMENTAL)
public record FaultFiring(
    String faultId,
    String point,
    FaultPosition position,
    FaultAction action,
    Instant at,
    @Nullable Long checkpointId,
    String process) {

  public FaultFiring {
    Objects.requireNonNull(faultId, "faultId");
    Objects.requireNonNull(point, "point");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(process, "process");
  }
}
