package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Evidence that an {@link EmbeddedKafkaBroker} started or stopped: what, when, how long it took and
 * on which address, for the broker-restart fault's run record.
 *
 * @param action {@code start} (first start), {@code restart} (a start after a stop) or {@code stop}
 * @param startedAt when the transition began
 * @param took how long it took: for a start, until the broker answered an admin request
 * @param bootstrapServers the broker's address, the same before and after a restart
 * @param clusterId the cluster id, the same before and after a restart
 */
@API(status = EXPERIMENTAL)
public record BrokerTransition(
    String action, Instant startedAt, Duration took, String bootstrapServers, String clusterId) {

  public BrokerTransition {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(took, "took");
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(clusterId, "clusterId");
  }

  /** When the transition finished. */
  public Instant finishedAt() {
    return startedAt.plus(took);
  }
}
