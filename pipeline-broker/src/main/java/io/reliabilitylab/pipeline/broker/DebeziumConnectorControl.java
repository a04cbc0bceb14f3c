package io.reliabilitylab.pipeline.broker;

import io.reliabilitylab.pipeline.broker.source.DebeziumPublisher;
import io.reliabilitylab.pipeline.broker.source.OffsetSnapshot;
import io.reliabilitylab.pipeline.broker.source.PoisonEvidence;
import io.reliabilitylab.pipeline.broker.source.RewindEvidence;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The Debezium engine as {@link SourceConnectorControl} (its stop and start are not the broker's),
 * keeping the poisons it was asked to publish, the offset marks it took and its last rewind.
 */
final class DebeziumConnectorControl implements SourceConnectorControl {

  private final DebeziumPublisher publisher;
  private final Map<String, CompletableFuture<PoisonEvidence>> poisons = new ConcurrentHashMap<>();
  private final Map<String, OffsetSnapshot> marks = new ConcurrentHashMap<>();
  private final AtomicInteger markCount = new AtomicInteger();
  private volatile @Nullable RewindEvidence lastRewind;

  DebeziumConnectorControl(DebeziumPublisher publisher) {
    this.publisher = publisher;
  }

  @Override
  public String status() {
    return publisher.status();
  }

  @Override
  public void stop() {
    publisher.stop();
  }

  @Override
  public void start() {
    publisher.start();
  }

  @Override
  public long published() {
    return publisher.stats().changes();
  }

  @Override
  public void corruptNext(long k, String faultId) {
    poisons.put(faultId, publisher.corruptNext(k));
  }

  @Override
  public Optional<CorruptedRecord> corrupted(String faultId) {
    CompletableFuture<PoisonEvidence> pending = poisons.get(faultId);
    if (pending == null || !pending.isDone() || pending.isCompletedExceptionally()) {
      return Optional.empty();
    }
    PoisonEvidence poison = pending.join();
    return Optional.of(
        new CorruptedRecord(
            poison.topic(),
            poison.partition(),
            poison.offset(),
            poison.timestampMs(),
            "order_id=" + poison.orderId(),
            poison.valueSha256(),
            poison.valueLength(),
            null,
            poison.publishedAt()));
  }

  @Override
  public String markOffsets() {
    String mark = "offsets-" + markCount.incrementAndGet();
    marks.put(mark, publisher.snapshotOffsets());
    return mark;
  }

  @Override
  public void restartFrom(String mark) {
    OffsetSnapshot snapshot = marks.get(mark);
    if (snapshot == null) {
      throw new IllegalArgumentException(
          "No offsets mark '" + mark + "'; marks taken: " + marks.keySet());
    }
    lastRewind = publisher.restartFrom(snapshot);
  }

  @Override
  public long republished() {
    return publisher.replayedCount();
  }

  @Override
  public boolean caughtUp() {
    RewindEvidence rewind = lastRewind;
    if (rewind == null || rewind.highWaterMark() == null) {
      return rewind != null;
    }
    return publisher
        .lastPosition()
        .map(position -> position.compareTo(rewind.highWaterMark()) >= 0)
        .orElse(false);
  }
}
