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

  /** The smallest range holding both. */
  public KeyRange span(KeyRange other) {
    return new KeyRange(Math.min(first, other.first), Math.max(last, other.last));
  }

  @Override
  public String toString() {
    return first + ".." + last;
  }
}
