package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/**
 * Where a {@link ProvenFault}'s recovery counts from when the pipeline notices the fault later than
 * it happened: a killed source connection is seen only when the connector reconnects, and a
 * checkpoint completed before that shows nothing about the new stream. The kit waits for this
 * moment first, then for a checkpoint completed after it and a sink commit of that checkpoint or a
 * later one, committed after it.
 *
 * <pre>{@code
 * fault.recoveryFrom((faultAt, timeout) -> {
 *   Connection reconnected = connections.awaitNewOne(timeout);
 *   return RecoveryStart.Moment.now(clock, Map.of("connection_id", reconnected.id()));
 * });
 * }</pre>
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface RecoveryStart {

  /**
   * Waits, up to {@code timeout}, for the moment the pipeline's recovery from the fault at {@code
   * faultAt} starts; returns it with what the fault saw then.
   *
   * @throws TimeoutException naming what did not happen in time
   */
  Moment await(Instant faultAt, Duration timeout) throws TimeoutException, InterruptedException;

  /**
   * The moment recovery starts, with details for the recovery evidence.
   *
   * @param at when it started
   * @param details what the fault saw then, e.g. the new connection's id
   */
  record Moment(Instant at, Map<String, String> details) {

    public Moment {
      Objects.requireNonNull(at, "at");
      details = Map.copyOf(details);
    }
  }
}
