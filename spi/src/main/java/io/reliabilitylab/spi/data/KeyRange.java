package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The keys {@code first} to {@code last}, both included, of a table whose key is one integral
 * column.
 */
@API(status = EXPERIMENTAL)
public record KeyRange(long first, long last) {

  public KeyRange {
    if (first > last) {
      throw new IllegalArgumentException("Key range " + first + ".." + last + " is empty");
    }
  }

  /** How many keys the range spans, or {@link Long#MAX_VALUE} when that does not fit a long. */
  public long width() {
    long span = last - first;
    return span < 0 || span == Long.MAX_VALUE ? Long.MAX_VALUE : span + 1;
  }

  /** Whether the key lies in this range. */
  public boolean contains(long key) {
    return key >= first && key <= last;
  }

  /**
   * The {@code index}th bucket of {@code width} consecutive keys from {@link #first()}; the last
   * one ends at {@link #last()}.
   */
  public KeyRange bucket(long width, long index) {
    long start = first + index * width;
    return new KeyRange(start, last - start < width ? last : start + width - 1);
  }

  /** The index of the bucket of {@code width} keys that holds {@code key}, a key of this range. */
  public long bucketOf(long key, long width) {
    return Long.divideUnsigned(key - first, width);
  }

  /** The smallest range holding both. */
  public KeyRange span(KeyRange other) {
    return new KeyRange(Math.min(first, other.first), Math.max(last, other.last));
  }

  @Override
  public String toString() {
    return first + ".." + last;
  }
}
