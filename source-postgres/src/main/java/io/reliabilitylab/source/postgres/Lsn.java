package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * PostgreSQL's log sequence numbers: {@code 16/B374D848} as the server writes them, a 64-bit byte
 * position in the WAL as Debezium's {@code source.lsn} and the lab's source positions carry them.
 */
@API(status = EXPERIMENTAL)
public final class Lsn {

  private Lsn() {}

  /** The position {@code text} names ({@code hi/lo}, both hexadecimal). */
  public static long parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 1 || slash == text.length() - 1) {
      throw new IllegalArgumentException("Not an LSN (hi/lo in hexadecimal): '" + text + "'");
    }
    long high = Long.parseLong(text.substring(0, slash), 16);
    long low = Long.parseLong(text.substring(slash + 1), 16);
    if (high > 0xFFFF_FFFFL || low > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("Not an LSN, a half exceeds 32 bits: '" + text + "'");
    }
    return high << 32 | low;
  }

  /** The text form of a position, as {@code pg_current_wal_lsn()} shows it. */
  public static String format(long lsn) {
    return Long.toHexString(lsn >>> 32).toUpperCase()
        + "/"
        + Long.toHexString(lsn & 0xFFFF_FFFFL).toUpperCase();
  }
}
