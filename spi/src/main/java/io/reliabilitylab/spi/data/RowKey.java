package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import org.apiguardian.api.API;

/**
 * A primary key value. Keys sort in the lab's own order, never a database collation: numbers by
 * value, text by Unicode code point, instants on the time line, booleans false before true.
 */
@API(status = STABLE)
public final class RowKey implements Comparable<RowKey> {

  private final Object[] parts;

  private RowKey(Object[] parts) {
    this.parts = parts;
  }

  /** A key of one or more non-null parts. */
  public static RowKey of(Object... parts) {
    if (parts.length == 0) {
      throw new IllegalArgumentException("A key needs at least one part");
    }
    Object[] copy = parts.clone();
    for (int i = 0; i < copy.length; i++) {
      Objects.requireNonNull(copy[i], "key part");
      if (copy[i] instanceof Integer value) {
        copy[i] = value.longValue();
      }
    }
    return new RowKey(copy);
  }

  /** The parts of this key, in key column order. */
  public List<Object> parts() {
    return List.of(parts);
  }

  @Override
  public int compareTo(RowKey other) {
    int n = Math.min(parts.length, other.parts.length);
    for (int i = 0; i < n; i++) {
      int c = comparePart(parts[i], other.parts[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(parts.length, other.parts.length);
  }

  private static int comparePart(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return compareCodePoints(x, y);
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
    // Keys of one table have one type per part; mixed types only meet in malformed input.
    return compareCodePoints(a.getClass().getName(), b.getClass().getName());
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

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey other && Arrays.equals(parts, other.parts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(parts);
  }

  /** The key as canonical text, parts joined by {@code |}, for evidence. */
  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner("|");
    for (Object part : parts) {
      joiner.add(CanonicalForm.value(part));
    }
    return joiner.toString();
  }
}
