package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.SourcePosition;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DebeziumPublisher}'s counters at one moment.
 *
 * @param state the connector's state
 * @param published records published and acknowledged since it was built, tombstones included
 * @param tombstones of those, tombstones
 * @param corrupted of those, records corrupted on purpose
 * @param replayed change records (not tombstones) published again since the last {@link
 *     DebeziumPublisher#restartFrom rewind} whose source position is at or below the highest one
 *     published before it
 * @param lastPosition the source position of the last published change, if any
 */
@API(status = EXPERIMENTAL)
public record PublisherStats(
    ConnectorState state,
    long published,
    long tombstones,
    long corrupted,
    long replayed,
    @Nullable SourcePosition lastPosition) {

  public PublisherStats {
    Objects.requireNonNull(state, "state");
  }

  /** Change records published: every record but the tombstones. */
  public long changes() {
    return published - tombstones;
  }
}
