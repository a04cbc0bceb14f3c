package io.reliabilitylab.workload;

import java.util.HashMap;
import java.util.Map;

/**
 * A set of keys that picks one by index in O(1). The order of its keys depends only on the order of
 * adds and removes, never on hashing, so picks replay exactly from a seed.
 */
final class KeyPool {

  private long[] keys = new long[64];
  private int size;
  // Only looked up, never iterated: iteration order of a HashMap must not reach a workload.
  private final Map<Long, Integer> positions = new HashMap<>();

  int size() {
    return size;
  }

  boolean contains(long key) {
    return positions.containsKey(key);
  }

  long get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(index);
    }
    return keys[index];
  }

  void add(long key) {
    if (positions.putIfAbsent(key, size) != null) {
      return;
    }
    if (size == keys.length) {
      long[] grown = new long[size * 2];
      System.arraycopy(keys, 0, grown, 0, size);
      keys = grown;
    }
    keys[size++] = key;
  }

  void remove(long key) {
    Integer position = positions.remove(key);
    if (position == null) {
      return;
    }
    long last = keys[--size];
    if (position != size) {
      keys[position] = last;
      positions.put(last, position);
    }
  }
}
