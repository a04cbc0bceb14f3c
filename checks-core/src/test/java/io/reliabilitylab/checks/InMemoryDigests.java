package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.BucketDigest;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyRange;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Key-range digests of rows in memory, with the row hash given: the real one, or a weak one that
 * forces collisions. For properties of {@link DigestBisect}; the stores' own digests have their
 * integration tests (MariaDB in SQL, Iceberg over data files).
 */
final class InMemoryDigests implements KeyRangeDigests {

  private final List<Row> rows;
  private final ToLongFunction<Row> hash;
  private final boolean keysUnique;
  private int digestCalls;

  InMemoryDigests(List<Row> rows, ToLongFunction<Row> hash, boolean keysUnique) {
    this.rows = List.copyOf(rows);
    this.hash = hash;
    this.keysUnique = keysUnique;
  }

  /** A row set that offers these digests. */
  static RowSet rowSet(
      String description, List<Row> rows, ToLongFunction<Row> hash, boolean unique) {
    RowSet plain = Fixture.rows(description, rows);
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return plain.schema();
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<Row> open() {
        return plain.open();
      }

      @Override
      public Optional<KeyRangeDigests> keyRangeDigests() {
        return Optional.of(new InMemoryDigests(rows, hash, unique));
      }
    };
  }

  int digestCalls() {
    return digestCalls;
  }

  private static long key(Row row) {
    return (Long) row.get("order_id");
  }

  @Override
  public Optional<KeyRange> bounds() {
    return rows.stream().map(row -> new KeyRange(key(row), key(row))).reduce(KeyRange::span);
  }

  @Override
  public List<BucketDigest> digests(KeyRange range, long width) {
    digestCalls++;
    Map<Long, long[]> buckets = new TreeMap<>();
    for (Row row : rows) {
      long key = key(row);
      if (range.contains(key)) {
        long[] cell =
            buckets.computeIfAbsent(
                Long.divideUnsigned(key - range.first(), width), b -> new long[2]);
        cell[0]++;
        cell[1] += hash.applyAsLong(row);
      }
    }
    List<BucketDigest> digests = new ArrayList<>();
    buckets.forEach(
        (bucket, cell) ->
            digests.add(new BucketDigest(range.bucket(width, bucket), cell[0], cell[1])));
    return digests;
  }

  @Override
  public CloseableIterator<Row> rows(List<KeyRange> ranges) {
    return CloseableIterator.of(
        rows.stream().filter(row -> ranges.stream().anyMatch(r -> r.contains(key(row)))).toList());
  }

  @Override
  public boolean keysUnique() {
    return keysUnique;
  }

  @Override
  public void close() {}
}
