package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * SHA-256 of a row set in canonical form: the canonical lines of its rows in key order. Rows must
 * be added in ascending key order; an out-of-order row is refused, since the digest would then
 * depend on read order.
 */
@API(status = STABLE)
public final class RowSetDigest {

  private final MessageDigest digest = CanonicalForm.newSha256();
  private @Nullable RowKey last;
  private long rows;

  /** Adds the next row, in ascending key order. */
  public RowSetDigest add(Row row) {
    RowKey key = row.key();
    if (last != null && last.compareTo(key) > 0) {
      throw new IllegalStateException(
          "Rows must be digested in key order: " + key + " came after " + last);
    }
    last = key;
    digest.update(CanonicalForm.bytes(row));
    rows++;
    return this;
  }

  /** How many rows were added. */
  public long rows() {
    return rows;
  }

  /** The digest as lower-case hex; the digest of no rows is SHA-256 of nothing. */
  public String hex() {
    try {
      return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 digest cannot be cloned", e);
    }
  }
}
