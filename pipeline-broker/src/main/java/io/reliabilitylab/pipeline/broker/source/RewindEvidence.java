package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.SourcePosition;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Evidence that a {@link DebeziumPublisher} was restarted from an older offset file: which one, how
 * far it had published before, and the stop and start around the swap. How many changes were
 * published again shows in {@link DebeziumPublisher#replayedCount()} as they arrive.
 *
 * @param from the offset copy it restarted from
 * @param highWaterMark the highest source position published before the rewind: a change at or
 *     below it published afterwards counts as replayed
 * @param publishedBefore records published before the rewind
 * @param stopped the stop before the offset file was replaced
 * @param started the start after it
 */
@API(status = EXPERIMENTAL)
public record RewindEvidence(
    OffsetSnapshot from,
    @Nullable SourcePosition highWaterMark,
    long publishedBefore,
    PublisherTransition stopped,
    PublisherTransition started) {

  public RewindEvidence {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(stopped, "stopped");
    Objects.requireNonNull(started, "started");
  }
}
