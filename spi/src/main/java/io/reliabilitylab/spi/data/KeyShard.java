package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One of {@code count} disjoint shares of a table's keys, by key hash: a check that must hold a
 * per-key state reads a large table shard by shard, so its memory stays bounded.
 *
 * @param count how many shards the keys are split into
 * @param index which of them this is, from 0
 */
@API(status = EXPERIMENTAL)
public record KeyShard(int count, int index) {

  /** Every key. */
  public static final KeyShard ALL = new KeyShard(1, 0);

  public KeyShard {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "A key shard needs 0 <= index < count, got " + index + " of " + count);
    }
  }

  /** Whether {@code key} falls in this shard. */
  public boolean contains(RowKey key) {
    return count == 1 || Math.floorMod(key.hashCode(), count) == index;
  }
}
