package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.SourcePosition;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Evidence that a {@link DebeziumPublisher} started or stopped: when, how long it took, the state
 * it reached and how far it had published.
 *
 * @param action {@code start} or {@code stop}
 * @param startedAt when the transition began
 * @param took how long it took: a start until the connector task runs, a stop until the engine
 *     ended with its offsets flushed
 * @param state the state reached
 * @param published records published so far (tombstones included)
 * @param lastPosition the source position of the last published change, if any
 */
@API(status = EXPERIMENTAL)
public record PublisherTransition(
    String action,
    Instant startedAt,
    Duration took,
    ConnectorState state,
    long published,
    @Nullable SourcePosition lastPosition) {

  public PublisherTransition {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(took, "took");
    Objects.requireNonNull(state, "state");
  }
}
