package io.reliabilitylab.pipeline.broker.source;

import io.reliabilitylab.spi.data.SourcePosition;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * What the broker acknowledged so far: the counters and source positions that the stats, the
 * transitions, the offset snapshots and the rewinds report. Written on the engine's thread once a
 * record is acknowledged, read from any thread.
 */
final class PublishAccounting {

  private final AtomicLong published = new AtomicLong();
  private final AtomicLong tombstones = new AtomicLong();
  private final AtomicLong corrupted = new AtomicLong();
  private final AtomicLong replayed = new AtomicLong();
  private volatile @Nullable SourcePosition lastPosition;
  private volatile @Nullable SourcePosition highestPosition;

  /** The highest position published before the last rewind: a change at or below it is replayed. */
  private volatile @Nullable SourcePosition rewindMark;

  /** Counts a record the broker acknowledged; a change also moves the positions. */
  void acknowledged(boolean tombstone, SourcePosition position) {
    published.incrementAndGet();
    if (tombstone) {
      tombstones.incrementAndGet();
    } else {
      SourcePosition mark = rewindMark;
      if (mark != null && position.compareTo(mark) <= 0) {
        replayed.incrementAndGet();
      }
      lastPosition = position;
      SourcePosition highest = highestPosition;
      if (highest == null || position.compareTo(highest) > 0) {
        highestPosition = position;
      }
    }
  }

  /** Counts an acknowledged record that was published with a corrupted value. */
  void countCorrupted() {
    corrupted.incrementAndGet();
  }

  /** After a rewind to an older offset file: counts the replayed changes from 0 against mark. */
  void rewound(@Nullable SourcePosition mark) {
    rewindMark = mark;
    replayed.set(0);
  }

  long published() {
    return published.get();
  }

  long tombstones() {
    return tombstones.get();
  }

  long replayed() {
    return replayed.get();
  }

  @Nullable SourcePosition lastPosition() {
    return lastPosition;
  }

  @Nullable SourcePosition highestPosition() {
    return highestPosition;
  }

  PublisherStats stats(ConnectorState state) {
    return new PublisherStats(
        state, published.get(), tombstones.get(), corrupted.get(), replayed.get(), lastPosition);
  }
}
