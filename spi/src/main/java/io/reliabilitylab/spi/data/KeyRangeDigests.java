package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A row set digested where its rows live, bucket by bucket of its key, so that two large sets can
 * be compared without moving every row: a database computes the digests in a {@code GROUP BY}, an
 * Iceberg reader over its data files in parallel. Offered by {@link RowSet#keyRangeDigests()} for a
 * set whose key is one integral column.
 *
 * <p>Every call reads the same consistent state of the set (one snapshot, one transaction) until
 * {@link #close()}. Digests follow {@link BucketDigest}: rows and the sum of {@link
 * CanonicalForm#rowHash}, which every implementation computes from the row's canonical line, so
 * that digests of a database table and of an Iceberg table holding the same rows are equal.
 */
@API(status = EXPERIMENTAL)
public interface KeyRangeDigests extends AutoCloseable {

  /** The smallest and largest key the set holds, or empty when it holds no rows. */
  Optional<KeyRange> bounds();

  /**
   * The digests of the rows with keys in {@code range}, split into buckets of {@code width}
   * consecutive keys starting at {@code range.first()} (the last one may be narrower); buckets that
   * hold no rows are left out. In bucket order.
   */
  List<BucketDigest> digests(KeyRange range, long width);

  /** The rows whose keys lie in any of the ranges, in any order; the caller closes the iterator. */
  CloseableIterator<Row> rows(List<KeyRange> ranges);

  /**
   * Whether the set can never hold a key twice (a primary key enforces it). A comparison needs one
   * such side: then two equal digests mean neither side holds a key twice in that bucket.
   */
  boolean keysUnique();

  @Override
  void close();
}
