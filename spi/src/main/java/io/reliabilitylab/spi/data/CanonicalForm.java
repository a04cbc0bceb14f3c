package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The one text form of values and rows that every digest and diff uses, so that a digest computed
 * on any machine, in any default time zone, for a MySQL row and an Iceberg row agrees.
 *
 * <ul>
 *   <li>columns in the schema's fixed order, separated by a tab, a row ended by a newline;
 *   <li>timestamps in UTC with exactly six fractional digits: {@code 2026-01-01T00:00:01.000000Z};
 *   <li>decimals without trailing zeros in plain notation, doubles in {@link Double#toString};
 *   <li>{@code \N} for null; backslash, tab and newline in text escaped as {@code \\ \t \n};
 *   <li>row sets in the lab's key order ({@link RowKey}), never a database collation.
 * </ul>
 */
@API(status = STABLE)
public final class CanonicalForm {

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private CanonicalForm() {}

  /** The canonical text of one value. */
  public static String value(@Nullable Object value) {
    if (value == null) {
      return "\\N";
    }
    if (value instanceof Instant instant) {
      return micros(instant);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros().toPlainString();
    }
    if (value instanceof String text) {
      return escape(text);
    }
    return value.toString();
  }

  /**
   * {@link #MICROS} written by hand for the years 0 to 9999: digests format every timestamp of
   * every row, and the formatter was most of a digest's cost.
   */
  private static String micros(Instant instant) {
    long seconds = instant.getEpochSecond();
    long day = Math.floorDiv(seconds, 86_400);
    int secondOfDay = (int) Math.floorMod(seconds, 86_400);
    LocalDate date = LocalDate.ofEpochDay(day);
    int year = date.getYear();
    if (year < 0 || year > 9999) {
      return MICROS.format(instant);
    }
    char[] text = new char[27];
    digits(text, 0, year, 4);
    text[4] = '-';
    digits(text, 5, date.getMonthValue(), 2);
    text[7] = '-';
    digits(text, 8, date.getDayOfMonth(), 2);
    text[10] = 'T';
    digits(text, 11, secondOfDay / 3600, 2);
    text[13] = ':';
    digits(text, 14, secondOfDay / 60 % 60, 2);
    text[16] = ':';
    digits(text, 17, secondOfDay % 60, 2);
    text[19] = '.';
    digits(text, 20, instant.getNano() / 1000, 6);
    text[26] = 'Z';
    return new String(text);
  }

  private static void digits(char[] text, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      text[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /** The canonical line of one row, with its trailing newline. */
  public static String line(Row row) {
    StringBuilder line = new StringBuilder(96);
    for (int i = 0; i < row.values().size(); i++) {
      if (i > 0) {
        line.append('\t');
      }
      line.append(value(row.values().get(i)));
    }
    return line.append('\n').toString();
  }

  /** The canonical line of a row as UTF-8 bytes. */
  public static byte[] bytes(Row row) {
    return line(row).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A 64-bit hash of the row's canonical line: its CRC-32 in the high half and its CRC-32C in the
   * low half. Both are computed as cheaply by a database ({@code CRC32()}, {@code CRC32C()} in
   * MariaDB) as by the JDK, so that a table's {@link BucketDigest}s can be computed where it lives.
   * Not a cryptographic hash: it guards against accidents, not against an adversary.
   */
  public static long rowHash(Row row) {
    return rowHash(bytes(row));
  }

  /** {@link #rowHash(Row)} of a canonical line's UTF-8 bytes. */
  public static long rowHash(byte[] line) {
    CRC32 high = new CRC32();
    high.update(line);
    CRC32C low = new CRC32C();
    low.update(line);
    return (high.getValue() << 32) | low.getValue();
  }

  /** SHA-256 of text, as lower-case hex. */
  public static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(newSha256().digest(bytes));
  }

  /** A fresh SHA-256 digest; the JDK always provides the algorithm. */
  public static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK lacks SHA-256", e);
    }
  }

  private static String escape(String text) {
    if (text.indexOf('\\') < 0 && text.indexOf('\t') < 0 && text.indexOf('\n') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
