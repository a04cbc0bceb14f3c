package io.reliabilitylab.checks.iceberg;

import java.util.Arrays;

/**
 * An open-addressing table from long keys to the highest long value put for them; absent keys read
 * as {@link Long#MIN_VALUE}. Unboxed: a CDC table's deletes number in the millions, and a boxed
 * map's lookups dominated a read.
 */
final class LongMaxTable {
  private static final long FREE = Long.MIN_VALUE;

  private long[] keys;
  private long[] values;
  private boolean hasFreeKey;
  private long freeKeyValue = Long.MIN_VALUE;
  private int size;

  LongMaxTable(long expected) {
    int capacity =
        Integer.highestOneBit((int) Math.min(1 << 30, Math.max(4, expected * 2)) - 1) << 1;
    keys = new long[capacity];
    values = new long[capacity];
    Arrays.fill(keys, FREE);
  }

  int size() {
    return size + (hasFreeKey ? 1 : 0);
  }

  void putMax(long key, long value) {
    if (key == FREE) {
      freeKeyValue = hasFreeKey ? Math.max(freeKeyValue, value) : value;
      hasFreeKey = true;
      return;
    }
    if ((size + 1) * 2L > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    int slot = mix(key) & mask;
    while (keys[slot] != FREE && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    if (keys[slot] == FREE) {
      keys[slot] = key;
      values[slot] = value;
      size++;
    } else {
      values[slot] = Math.max(values[slot], value);
    }
  }

  long get(long key) {
    if (key == FREE) {
      return hasFreeKey ? freeKeyValue : Long.MIN_VALUE;
    }
    int mask = keys.length - 1;
    int slot = mix(key) & mask;
    while (keys[slot] != FREE) {
      if (keys[slot] == key) {
        return values[slot];
      }
      slot = (slot + 1) & mask;
    }
    return Long.MIN_VALUE;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new long[oldKeys.length * 2];
    Arrays.fill(keys, FREE);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != FREE) {
        putMax(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int mix(long key) {
    // MurmurHash3's finaliser: keys that differ only in high bits still spread.
    long h = key;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return (int) h;
  }
}
