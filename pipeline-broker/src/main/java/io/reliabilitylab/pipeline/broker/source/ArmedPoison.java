package io.reliabilitylab.pipeline.broker.source;

import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jspecify.annotations.Nullable;

/**
 * A poison armed by {@link DebeziumPublisher#corruptNext(long)}: counts change records down on the
 * engine's thread, remembers the record it corrupted once acknowledged, and gives the evidence the
 * caller waits for once the engine stopped.
 */
final class ArmedPoison {

  final long k;
  final Instant armedAt;
  final CompletableFuture<PoisonEvidence> evidence = new CompletableFuture<>();
  private long remaining;

  /** The run that published the poison record: its end completes the evidence. */
  volatile @Nullable EngineRun owner;

  private volatile @Nullable Published published;

  /** Records of the poison's batch after it, neither published nor marked processed. */
  volatile int withheld;

  ArmedPoison(long k, Instant armedAt) {
    this.k = k;
    this.armedAt = armedAt;
    this.remaining = k;
  }

  /** Counts one change record; true for the one to corrupt. */
  boolean countDown() {
    return remaining > 0 && --remaining == 0;
  }

  /** Keeps what the evidence needs about the poison record the broker acknowledged. */
  void published(
      RecordMetadata metadata,
      ChangeEncoder.Encoded encoded,
      SourcePosition position,
      byte[] value,
      long publishedAt) {
    published =
        new Published(
            metadata.topic(),
            metadata.partition(),
            metadata.offset(),
            metadata.timestamp(),
            encoded.orderId(),
            Objects.requireNonNull(encoded.op()),
            position,
            ChangeEncoder.sha256Hex(value),
            value.length,
            Instant.ofEpochMilli(publishedAt));
  }

  /** Whether the poison record was published and acknowledged by {@code ended}. */
  boolean firedIn(EngineRun ended) {
    return owner == ended && published != null;
  }

  PoisonEvidence evidence(Instant stoppedAt, ConnectorState stateAfter) {
    Published fired = Objects.requireNonNull(published);
    return new PoisonEvidence(
        fired.topic(),
        fired.partition(),
        fired.offset(),
        fired.timestampMs(),
        fired.orderId(),
        fired.op(),
        fired.position(),
        fired.sha256(),
        fired.length(),
        k,
        armedAt,
        fired.publishedAt(),
        withheld,
        stoppedAt,
        stateAfter);
  }

  /** What the evidence needs about a published poison record. */
  private record Published(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      long orderId,
      ChangeOp op,
      SourcePosition position,
      String sha256,
      int length,
      Instant publishedAt) {}
}
