package io.reliabilitylab.workload;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The generators' view of the {@code orders} table while they build a workload: which keys are
 * live, deleted or never used, the next event id, and how row values follow from a value choice.
 * Both the seeded generator and the jqwik interpreter drive it, so both produce valid sequences.
 */
final class OrdersModel {

  /** Where a generator's free choices come from: a seeded random, or a shrinkable intent. */
  interface Choices {
    /** A choice in {@code [0, bound)}; bound is positive. */
    int index(int bound);

    /** A yes/no choice. */
    boolean coin();
  }

  private static final String CREATED = "created";
  private static final String CANCELLED = "cancelled";
  private static final List<String> LIFECYCLE =
      List.of(CREATED, "paid", "packed", "shipped", "delivered");

  private final int seedColumn;
  private final long keySpace;
  private long nextFreshKey = 1;
  private long nextEventId;
  // Only looked up, never iterated.
  private final Map<Long, Row> live = new HashMap<>();
  private final KeyPool liveKeys = new KeyPool();
  private final KeyPool deletedKeys = new KeyPool();

  OrdersModel(long seed, long keySpace, long firstEventId) {
    this.seedColumn = (int) seed;
    this.keySpace = keySpace;
    this.nextEventId = firstEventId;
  }

  /** How many keys have ever been used: keys 1 to this number. */
  long usedKeys() {
    return nextFreshKey - 1;
  }

  boolean isLive(long key) {
    return liveKeys.contains(key);
  }

  /**
   * Applies one operation and returns the change it made. {@code target}, when given, is a used key
   * the change must act on: updated or deleted if live, re-inserted if not. Operations that cannot
   * apply (an update of an empty table, an insert into a full key space) fall back to one that can.
   */
  SourceChange apply(
      Operation operation, @Nullable Long target, Choices choices, int value, Instant time) {
    if (target != null) {
      if (!isLive(target)) {
        return insert(target, value, time);
      }
      return switch (operation) {
        case DELETE -> delete(target);
        case PRIMARY_KEY_UPDATE -> moveKey(target, choices, value, time);
        default -> update(target, value, time);
      };
    }
    return switch (operation) {
      case INSERT -> insertAnywhere(choices, value, time);
      case REINSERT ->
          deletedKeys.size() > 0
              ? insert(deletedKeys.get(choices.index(deletedKeys.size())), value, time)
              : insertAnywhere(choices, value, time);
      case UPDATE, DELETE, PRIMARY_KEY_UPDATE -> {
        if (liveKeys.size() == 0) {
          yield insertAnywhere(choices, value, time);
        }
        yield apply(operation, liveKeys.get(choices.index(liveKeys.size())), choices, value, time);
      }
    };
  }

  /** Inserts a never-used key; in a full key space re-inserts a deleted key or updates a row. */
  SourceChange insertAnywhere(Choices choices, int value, Instant time) {
    if (nextFreshKey <= keySpace) {
      return insert(nextFreshKey, value, time);
    }
    if (deletedKeys.size() > 0) {
      return insert(deletedKeys.get(choices.index(deletedKeys.size())), value, time);
    }
    return update(liveKeys.get(choices.index(liveKeys.size())), value, time);
  }

  private SourceChange insert(long key, int value, Instant time) {
    long eventId = nextEventId++;
    Row after =
        row(
            key,
            "ord-" + key + "-" + eventId,
            1L + value % 1_000,
            amount(value),
            CREATED,
            eventId,
            time);
    if (key >= nextFreshKey) {
      nextFreshKey = key + 1;
    }
    deletedKeys.remove(key);
    liveKeys.add(key);
    live.put(key, after);
    return SourceChange.insert(after);
  }

  private SourceChange update(long key, int value, Instant time) {
    Row before = Objects.requireNonNull(live.get(key));
    String status = (String) Objects.requireNonNull(before.get(4));
    long amount = (Long) Objects.requireNonNull(before.get(3));
    int step = LIFECYCLE.indexOf(status);
    int kind = value % 8;
    boolean canAdvance = step >= 0 && step < LIFECYCLE.size() - 1;
    if (kind < 4 && canAdvance) {
      status = LIFECYCLE.get(step + 1);
    } else if (kind == 7 && canAdvance && step < 3) {
      status = CANCELLED;
    } else {
      amount = amount(value + (int) (amount % 1_000));
    }
    Row after =
        row(key, (String) before.get(1), (Long) before.get(2), amount, status, nextEventId++, time);
    live.put(key, after);
    return SourceChange.update(before, after);
  }

  private SourceChange moveKey(long key, Choices choices, int value, Instant time) {
    long newKey;
    if (nextFreshKey <= keySpace && (deletedKeys.size() == 0 || choices.coin())) {
      newKey = nextFreshKey++;
    } else if (deletedKeys.size() > 0) {
      newKey = deletedKeys.get(choices.index(deletedKeys.size()));
    } else {
      return update(key, value, time);
    }
    Row before = Objects.requireNonNull(live.remove(key));
    liveKeys.remove(key);
    deletedKeys.add(key);
    Row after =
        row(
            newKey,
            (String) before.get(1),
            (Long) before.get(2),
            (Long) before.get(3),
            (String) before.get(4),
            nextEventId++,
            time);
    deletedKeys.remove(newKey);
    liveKeys.add(newKey);
    live.put(newKey, after);
    return SourceChange.update(before, after);
  }

  private SourceChange delete(long key) {
    Row before = Objects.requireNonNull(live.remove(key));
    liveKeys.remove(key);
    deletedKeys.add(key);
    return SourceChange.delete(before);
  }

  /** The rows live now, in key order: for the initial state. */
  List<Row> liveRowsSorted() {
    long[] keys = new long[liveKeys.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = liveKeys.get(i);
    }
    Arrays.sort(keys);
    List<Row> rows = new ArrayList<>(keys.length);
    for (long key : keys) {
      rows.add(Objects.requireNonNull(live.get(key)));
    }
    return rows;
  }

  private static long amount(int value) {
    return 100L + (value * 7_919L) % 500_000L;
  }

  private Row row(
      long key,
      @Nullable String businessKey,
      @Nullable Long customer,
      long amount,
      String status,
      long eventId,
      Instant time) {
    return new Row(
        TableSchema.ORDERS,
        Arrays.asList(key, businessKey, customer, amount, status, eventId, seedColumn, time));
  }
}
