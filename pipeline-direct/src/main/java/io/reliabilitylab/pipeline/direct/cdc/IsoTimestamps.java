package io.reliabilitylab.pipeline.direct.cdc;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;

/**
 * Microseconds since the epoch of an ISO-8601 timestamp with offset, as Debezium writes a {@code
 * TIMESTAMP} column ({@code io.debezium.time.ZonedTimestamp}: {@code 2026-01-01T00:00:00.123Z}).
 *
 * <p>The UTC form Debezium writes is read by hand: {@link OffsetDateTime#parse} took a fifth of the
 * source task's time in an initial snapshot. Any other form (another offset, more than six fraction
 * digits, a year beyond 9999) goes to {@code OffsetDateTime.parse}, which gives the same value and
 * the same errors.
 */
final class IsoTimestamps {

  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long SECONDS_PER_DAY = 86_400L;

  private IsoTimestamps() {}

  /**
   * The timestamp's microseconds since the epoch.
   *
   * @throws java.time.format.DateTimeParseException when the text is not an ISO timestamp with
   *     offset
   */
  static long epochMicros(String text) {
    long fast = utcMicros(text);
    if (fast != Long.MIN_VALUE) {
      return fast;
    }
    return micros(OffsetDateTime.parse(text).toInstant());
  }

  /**
   * Whole microseconds since the epoch, rounded down (ChronoUnit's {@code between} overflows before
   * 1678 and after 2262, which a {@code TIMESTAMP} never reaches but a {@code DATETIME} may).
   */
  static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND), instant.getNano() / 1_000);
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,6}](Z|+00:00)}, or Long.MIN_VALUE for any other text. */
  private static long utcMicros(String text) {
    int length = text.length();
    if (length < 20
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':') {
      return Long.MIN_VALUE;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    // digits() is -1 for a non-digit; LocalDate.of below checks month and day.
    boolean inRange =
        year >= 0
            && month >= 0
            && day >= 0
            && hour >= 0
            && hour <= 23
            && minute >= 0
            && minute <= 59
            && second >= 0
            && second <= 59;
    if (!inRange) {
      return Long.MIN_VALUE;
    }
    int at = 19;
    long micros = 0;
    if (text.charAt(at) == '.') {
      at++;
      int first = at;
      while (at < length && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
        at++;
      }
      int count = at - first;
      if (count < 1 || count > 6) {
        return Long.MIN_VALUE;
      }
      micros = digits(text, first, count);
      if (micros < 0) {
        return Long.MIN_VALUE;
      }
      for (int i = count; i < 6; i++) {
        micros *= 10;
      }
    }
    boolean utc =
        (at == length - 1 && text.charAt(at) == 'Z')
            || (at == length - 6 && text.startsWith("+00:00", at));
    if (!utc) {
      return Long.MIN_VALUE;
    }
    long epochDay;
    try {
      epochDay = LocalDate.of(year, month, day).toEpochDay();
    } catch (DateTimeException e) {
      return Long.MIN_VALUE;
    }
    long seconds = epochDay * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second;
    return seconds * MICROS_PER_SECOND + micros;
  }

  /** The ASCII digits at {@code [from, from + count)} as a number, or -1 if one is not a digit. */
  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
