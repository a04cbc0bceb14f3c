package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Controls the source connector that publishes change events to the broker (a Debezium engine,
 * say): stops and starts it, corrupts a record in flight, and rewinds it to older offsets so that
 * events arrive twice.
 */
@API(status = EXPERIMENTAL)
public interface SourceConnectorControl extends PipelineCapability {

  /** The connector's state as an operator would see it, e.g. {@code RUNNING} or {@code STOPPED}. */
  String status();

  /** Stops the connector; its offsets are flushed. */
  void stop() throws Exception;

  /** Starts it again from its stored offsets. */
  void start() throws Exception;

  /** How many change records (not tombstones) the connector has published since it was created. */
  long published();

  /**
   * Arms a corruption: the {@code k}-th change record the connector publishes from now on goes to
   * the broker with corrupted value bytes, and the connector stops right after it (before
   * publishing anything later), so that the corrupted change is lost unless it is repaired.
   */
  void corruptNext(long k, String faultId);

  /** The record corrupted for a fault, once it was published. */
  Optional<CorruptedRecord> corrupted(String faultId);

  /** Remembers the connector's offsets now; returns a mark to rewind to. */
  String markOffsets() throws Exception;

  /**
   * Stops the connector, puts back the offsets of a mark and starts it, so that every event
   * published since the mark is published again.
   */
  void restartFrom(String mark) throws Exception;

  /**
   * How many records were published again after the last {@link #restartFrom}: records whose source
   * position is at or before the highest position published before the rewind.
   */
  long republished();

  /** Whether the connector, after a rewind, has published past where it was before it. */
  boolean caughtUp();

  /**
   * A record published with corrupted value bytes. The bytes themselves stay in the broker: here
   * only their SHA-256 and length.
   *
   * @param topic the topic it went to
   * @param partition its partition
   * @param offset its offset
   * @param timestampMs the broker's timestamp
   * @param key the record key as text (the primary key, not secret)
   * @param valueSha256 SHA-256 of the corrupted value bytes, lower-case hex
   * @param valueLength their length
   * @param eventId the event id of the change it carried, when known
   * @param publishedAt when it was acknowledged
   */
  record CorruptedRecord(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      String key,
      String valueSha256,
      int valueLength,
      @Nullable Long eventId,
      Instant publishedAt) {
    public CorruptedRecord {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(valueSha256, "valueSha256");
      Objects.requireNonNull(publishedAt, "publishedAt");
    }
  }
}
