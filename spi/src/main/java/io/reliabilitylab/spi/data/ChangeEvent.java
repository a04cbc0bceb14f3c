package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One changelog row: one source change envelope.
 *
 * <ul>
 *   <li>{@code r}, {@code c}: {@code row} is the after image, {@code eventId} its event id, no
 *       {@code beforeEventId};
 *   <li>{@code u}: {@code row} is the after image, {@code beforeEventId} the event id of the row it
 *       replaced (a Flink {@code -U}/{@code +U} pair is one such row);
 *   <li>{@code d}: {@code row} is the before image and both ids are the deleted row's event id;
 *       with a FULL row image and a new event id per write, {@code (d, eventId)} is unique.
 * </ul>
 *
 * A primary-key update arrives as {@code d(old key)} followed by {@code c(new key)}.
 */
@API(status = STABLE)
public record ChangeEvent(
    ChangeOp op,
    long eventId,
    @Nullable Long beforeEventId,
    Row row,
    SourcePosition position,
    Instant sourceTimestamp) {

  public ChangeEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(sourceTimestamp, "sourceTimestamp");
    switch (op) {
      case READ, CREATE -> {
        if (beforeEventId != null) {
          throw new IllegalArgumentException(op.code() + " events have no before event id");
        }
      }
      case UPDATE -> {
        if (beforeEventId == null) {
          throw new IllegalArgumentException("u events need the before event id");
        }
      }
      case DELETE -> {
        if (beforeEventId == null || beforeEventId != eventId) {
          throw new IllegalArgumentException(
              "d events carry the deleted row's event id as both event id and before event id");
        }
      }
    }
  }

  /** The primary key of the row this event changes. */
  public RowKey key() {
    return row.key();
  }

  /** The identity of this envelope in audits: op code and event id, e.g. {@code u:42}. */
  public String identity() {
    return op.code() + ":" + eventId;
  }
}
