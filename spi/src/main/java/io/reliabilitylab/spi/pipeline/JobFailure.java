package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One entry of the job's exception history: the lab proves a fault fired by finding the fault's own
 * id in {@code message}.
 *
 * @param at when the failure happened
 * @param exceptionClass the root exception's class name
 * @param message the failure's message chain, flattened to text
 * @param task the task or operator that failed, if known
 * @param location the TaskManager or host where it failed, if known
 * @param global whether it caused a global (whole-job) failover
 */
@API(status = STABLE)
public record JobFailure(
    Instant at,
    String exceptionClass,
    String message,
    @Nullable String task,
    @Nullable String location,
    boolean global) {

  public JobFailure {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(exceptionClass, "exceptionClass");
    Objects.requireNonNull(message, "message");
  }
}
