package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Comparator;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Where a change sits in the source's log: the log file (binlog file name, or another totally
 * ordered log name), the offset of its event in that log, and the index of the row inside that
 * event, so that two changes of one transaction stay distinct and ordered. {@code gtid} is kept for
 * evidence and does not take part in ordering.
 */
@API(status = STABLE)
public record SourcePosition(String log, long offset, int rowIndex, @Nullable String gtid)
    implements Comparable<SourcePosition> {

  private static final Comparator<SourcePosition> ORDER =
      Comparator.comparing(SourcePosition::log)
          .thenComparingLong(SourcePosition::offset)
          .thenComparingInt(SourcePosition::rowIndex);

  public SourcePosition {
    Objects.requireNonNull(log, "log");
    if (offset < 0 || rowIndex < 0) {
      throw new IllegalArgumentException("A source position cannot be negative");
    }
  }

  /** A position without a GTID. */
  public static SourcePosition of(String log, long offset, int rowIndex) {
    return new SourcePosition(log, offset, rowIndex, null);
  }

  @Override
  public int compareTo(SourcePosition other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return log + ":" + offset + "#" + rowIndex + (gtid == null ? "" : " (" + gtid + ")");
  }
}
