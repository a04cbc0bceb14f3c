package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A copy of a {@link DebeziumPublisher}'s offset file taken at one moment, to {@linkplain
 * DebeziumPublisher#restartFrom restart from} later so that the changes since are published again.
 *
 * @param copy the copied offset file
 * @param takenAt when it was copied
 * @param offsets what the copy holds: per source partition (Debezium's JSON key) the source offset
 *     (Debezium's JSON value: binlog file, position, GTID set, events and rows to skip)
 * @param publishedAtCopy records published when the copy was taken
 * @param lastPositionAtCopy the source position of the last change published when it was taken
 */
@API(status = EXPERIMENTAL)
public record OffsetSnapshot(
    Path copy,
    Instant takenAt,
    Map<String, String> offsets,
    long publishedAtCopy,
    @Nullable SourcePosition lastPositionAtCopy) {

  public OffsetSnapshot {
    Objects.requireNonNull(copy, "copy");
    Objects.requireNonNull(takenAt, "takenAt");
    offsets = Collections.unmodifiableMap(new LinkedHashMap<>(offsets));
  }
}
