package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One record a {@link DebeziumPublisher} published and the broker acknowledged: where it landed and
 * which source change it carries. Never holds the payload.
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset in that partition
 * @param timestampMs the record's timestamp as the broker stored it
 * @param orderId the primary key
 * @param op the change's operation; {@code null} for a tombstone
 * @param position the change's source position (a tombstone carries its delete's)
 * @param snapshot whether the change was read by the initial snapshot ({@code op} is {@code r})
 * @param corrupted whether its value was corrupted on purpose ({@link
 *     DebeziumPublisher#corruptNext(long)})
 * @param publishedAtMillis the local clock when the broker's acknowledgement arrived
 */
@API(status = EXPERIMENTAL)
public record PublishedRecord(
    String topic,
    int partition,
    long offset,
    long timestampMs,
    long orderId,
    @Nullable ChangeOp op,
    SourcePosition position,
    boolean snapshot,
    boolean corrupted,
    long publishedAtMillis) {

  public PublishedRecord {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(position, "position");
  }

  /** Whether this is the tombstone (null value) that follows a delete. */
  public boolean tombstone() {
    return op == null;
  }
}
