package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The digest of the rows whose key lies in one bucket: how many there are and the sum, modulo
 * 2<sup>64</sup>, of their {@linkplain CanonicalForm#rowHash row hashes}. A sum rather than a
 * running hash, so that it does not depend on read order and both sides can compute it in parallel
 * or in a database's {@code GROUP BY}; the row count catches a row held twice.
 */
@API(status = EXPERIMENTAL)
public record BucketDigest(KeyRange keys, long rows, long hashSum) {

  public BucketDigest {
    Objects.requireNonNull(keys, "keys");
    if (rows < 0) {
      throw new IllegalArgumentException("A bucket cannot hold " + rows + " rows");
    }
  }

  /** Whether both buckets hold the same rows, as far as the digest tells. */
  public boolean sameRows(BucketDigest other) {
    return rows == other.rows && hashSum == other.hashSum;
  }
}
