package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.io.Serializable;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where a change sits in the source's binlog, ordered as the server wrote it: by file, then event
 * offset, then row inside the event. Files that share a base name ({@code mysql-bin.000009}, {@code
 * mysql-bin.000010}) compare by their numeric suffix, so that a rollover past {@code 999999} still
 * orders right; other names compare as text. A Flink POJO, kept in keyed state.
 *
 * @param binlogFile the binlog file name
 * @param binlogPos the event's offset in that file
 * @param rowIndex the row's index inside the event
 */
@API(status = EXPERIMENTAL)
public record BinlogPosition(String binlogFile, long binlogPos, int rowIndex)
    implements Comparable<BinlogPosition>, Serializable {

  public BinlogPosition {
    Objects.requireNonNull(binlogFile, "binlogFile");
  }

  /** The position of an envelope's change. */
  public static BinlogPosition of(ChangeEnvelope envelope) {
    return new BinlogPosition(envelope.binlogFile(), envelope.binlogPos(), envelope.rowIndex());
  }

  @Override
  public int compareTo(BinlogPosition other) {
    int byFile = compareFiles(binlogFile, other.binlogFile);
    if (byFile != 0) {
      return byFile;
    }
    int byPos = Long.compare(binlogPos, other.binlogPos);
    return byPos != 0 ? byPos : Integer.compare(rowIndex, other.rowIndex);
  }

  /**
   * Orders binlog file names: a name whose part after the last {@code '.'} is all digits sorts by
   * the base name before the dot, then by that number ({@code mysql-bin.000009} before {@code
   * mysql-bin.000010}, and {@code mysql-bin.999999} before {@code mysql-bin.1000000}); any other
   * name sorts as a whole by its text, among the base names. A total order.
   */
  public static int compareFiles(String a, String b) {
    int dotA = numericSuffixDot(a);
    int dotB = numericSuffixDot(b);
    int byBase =
        (dotA < 0 ? a : a.substring(0, dotA)).compareTo(dotB < 0 ? b : b.substring(0, dotB));
    if (byBase != 0) {
      return byBase;
    }
    if ((dotA < 0) != (dotB < 0)) {
      return dotA < 0 ? -1 : 1; // "mysql-bin" before "mysql-bin.000001"
    }
    if (dotA >= 0) {
      int byNumber =
          compareDigits(stripZeros(a.substring(dotA + 1)), stripZeros(b.substring(dotB + 1)));
      if (byNumber != 0) {
        return byNumber;
      }
    }
    // the same number with other zero padding is still another file
    return a.compareTo(b);
  }

  /** The index of the last '.' when all after it are digits (at least one), else -1. */
  private static int numericSuffixDot(String name) {
    int dot = name.lastIndexOf('.');
    if (dot < 0 || dot == name.length() - 1) {
      return -1;
    }
    for (int i = dot + 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
    }
    return dot;
  }

  private static String stripZeros(String digits) {
    int i = 0;
    while (i < digits.length() - 1 && digits.charAt(i) == '0') {
      i++;
    }
    return digits.substring(i);
  }

  /** Compares unsigned decimal numbers of any length without parsing (no overflow). */
  private static int compareDigits(String a, String b) {
    return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
  }

  @Override
  public String toString() {
    return binlogFile + ":" + binlogPos + "#" + rowIndex;
  }
}
