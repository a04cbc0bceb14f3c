package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.TableSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Total orders on rows and change events for sorting. Keys compare as {@link RowKey} does (the
 * lab's order, never a database collation) but without allocating a key per comparison; ties are
 * broken by the remaining values, so that the sorted order does not depend on the read order.
 */
@API(status = EXPERIMENTAL)
public final class Orderings {

  private Orderings() {}

  /** Rows by key only: what {@link io.reliabilitylab.spi.data.RowSetDigest} needs. */
  public static Comparator<Row> rowsByKey(TableSchema schema) {
    int[] keys = schema.keyIndexes();
    return (a, b) -> compareAt(a.values(), b.values(), keys);
  }

  /** Rows by key, then by every value in column order: a total order on distinct rows. */
  public static Comparator<Row> rowsByKeyThenValues(TableSchema schema) {
    int[] keys = schema.keyIndexes();
    return (a, b) -> {
      int c = compareAt(a.values(), b.values(), keys);
      return c != 0 ? c : compareAll(a.values(), b.values());
    };
  }

  /** Rows by event id (nulls first), then by key and values. */
  public static Comparator<Row> rowsByEventId(TableSchema schema) {
    int eventId = schema.indexOf(requireEventIdColumn(schema));
    Comparator<Row> rest = rowsByKeyThenValues(schema);
    return (a, b) -> {
      int c = compareValues(a.values().get(eventId), b.values().get(eventId));
      return c != 0 ? c : rest.compare(a, b);
    };
  }

  /**
   * Events by key, then source position: one key's history in log order. Ties (an event delivered
   * twice) are broken by op, event id and image.
   */
  public static Comparator<ChangeEvent> eventsByKeyThenPosition(TableSchema schema) {
    int[] keys = schema.keyIndexes();
    return (a, b) -> {
      int c = compareAt(a.row().values(), b.row().values(), keys);
      if (c != 0) {
        return c;
      }
      c = a.position().compareTo(b.position());
      return c != 0 ? c : compareEventRest(a, b);
    };
  }

  /** Events by identity (event id, then op), then by key, position and image. */
  public static Comparator<ChangeEvent> eventsByIdentity(TableSchema schema) {
    int[] keys = schema.keyIndexes();
    return (a, b) -> {
      int c = Long.compare(a.eventId(), b.eventId());
      if (c != 0) {
        return c;
      }
      c = Integer.compare(a.op().ordinal(), b.op().ordinal());
      if (c != 0) {
        return c;
      }
      c = compareAt(a.row().values(), b.row().values(), keys);
      if (c != 0) {
        return c;
      }
      c = a.position().compareTo(b.position());
      return c != 0 ? c : compareEventRest(a, b);
    };
  }

  /** Whether two rows have the same key. */
  public static boolean sameKey(Row a, Row b, int[] keyIndexes) {
    return compareAt(a.values(), b.values(), keyIndexes) == 0;
  }

  /**
   * Compares two values of one column: null first, numbers by value, text by Unicode code point,
   * instants on the time line, false before true.
   */
  public static int compareValues(@Nullable Object a, @Nullable Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null) {
      return -1;
    }
    if (b == null) {
      return 1;
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return compareCodePoints(x, y);
    }
    if (a instanceof Integer x && b instanceof Integer y) {
      return Integer.compare(x, y);
    }
    if (a instanceof Instant x && b instanceof Instant y) {
      return x.compareTo(y);
    }
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y);
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y);
    }
    // One column has one value type; mixed types only meet in malformed input.
    return a.getClass().getName().compareTo(b.getClass().getName());
  }

  private static int compareAt(List<@Nullable Object> a, List<@Nullable Object> b, int[] indexes) {
    for (int index : indexes) {
      int c = compareValues(a.get(index), b.get(index));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static int compareAll(List<@Nullable Object> a, List<@Nullable Object> b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int c = compareValues(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareEventRest(ChangeEvent a, ChangeEvent b) {
    int c = Integer.compare(a.op().ordinal(), b.op().ordinal());
    if (c != 0) {
      return c;
    }
    c = Long.compare(a.eventId(), b.eventId());
    if (c != 0) {
      return c;
    }
    c = compareValues(a.beforeEventId(), b.beforeEventId());
    if (c != 0) {
      return c;
    }
    c = compareAll(a.row().values(), b.row().values());
    if (c != 0) {
      return c;
    }
    c = compareValues(a.position().gtid(), b.position().gtid());
    return c != 0 ? c : a.sourceTimestamp().compareTo(b.sourceTimestamp());
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static String requireEventIdColumn(TableSchema schema) {
    return Objects.requireNonNull(
        schema.eventIdColumn(), () -> "Table " + schema.name() + " has no event id column");
  }
}
