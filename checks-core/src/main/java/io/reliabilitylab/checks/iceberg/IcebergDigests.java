package io.reliabilitylab.checks.iceberg;

import io.reliabilitylab.spi.data.BucketDigest;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.KeyRange;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * {@link KeyRangeDigests} of an Iceberg table at one snapshot: each data file is read on its own
 * thread, deletes applied, and digested into per-file buckets that are then added up. Key bounds
 * come from the data files' column statistics where every file has them (a superset of the live
 * keys, which only widens the buckets), else from a scan.
 */
final class IcebergDigests implements KeyRangeDigests {

  /** Buckets kept in arrays up to this many per call; more go into a map. */
  private static final int ARRAY_BUCKETS = 1 << 16;

  private final Table table;
  private final TableSchema schema;
  private final String key;
  private final ParallelScan all;
  private final List<FileScanTask> tasks;
  private final Function<Record, Row> toRow;

  private IcebergDigests(
      Table table, TableSchema schema, ParallelScan all, List<FileScanTask> tasks) {
    this.table = table;
    this.schema = schema;
    this.all = all;
    this.tasks = tasks;
    this.toRow = RecordRows.of(schema);
    this.key = schema.columns().get(schema.keyIndexes()[0]).name();
  }

  /** Digests of the table's rows at the snapshot, when its key is one integral column. */
  static Optional<KeyRangeDigests> open(Table table, long snapshotId, TableSchema schema) {
    if (schema.keyIndexes().length != 1) {
      return Optional.empty();
    }
    ColumnType keyType = schema.columns().get(schema.keyIndexes()[0]).type();
    if (keyType != ColumnType.BIGINT && keyType != ColumnType.INT) {
      return Optional.empty();
    }
    Schema projection = table.schema().select(names(schema));
    ParallelScan all =
        new ParallelScan(
            table,
            snapshotId,
            projection,
            Expressions.alwaysTrue(),
            new CachedDeletes(table, snapshotId));
    Optional<List<FileScanTask>> tasks = all.plan();
    if (tasks.isEmpty()) {
      all.close();
      return Optional.empty();
    }
    return Optional.of(new IcebergDigests(table, schema, all, tasks.get()));
  }

  static List<String> names(TableSchema schema) {
    return schema.columns().stream().map(Column::name).toList();
  }

  @Override
  public Optional<KeyRange> bounds() {
    Optional<KeyRange> fromStats = boundsFromStatistics();
    if (fromStats.isPresent() || tasks.isEmpty()) {
      return fromStats;
    }
    List<long[]> perFile =
        all.eachFile(
            tasks,
            records -> {
              long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE, 0};
              for (Record record : records) {
                long k = keyOf(record);
                minMax[0] = Math.min(minMax[0], k);
                minMax[1] = Math.max(minMax[1], k);
                minMax[2]++;
              }
              return minMax;
            });
    KeyRange range = null;
    for (long[] minMax : perFile) {
      if (minMax[2] > 0) {
        KeyRange file = new KeyRange(minMax[0], minMax[1]);
        range = range == null ? file : range.span(file);
      }
    }
    return Optional.ofNullable(range);
  }

  private Optional<KeyRange> boundsFromStatistics() {
    Types.NestedField field = table.schema().findField(key);
    KeyRange range = null;
    for (FileScanTask task : tasks) {
      Map<Integer, ByteBuffer> lower = task.file().lowerBounds();
      Map<Integer, ByteBuffer> upper = task.file().upperBounds();
      if (lower == null || upper == null) {
        return Optional.empty();
      }
      ByteBuffer low = lower.get(field.fieldId());
      ByteBuffer high = upper.get(field.fieldId());
      if (low == null || high == null) {
        return Optional.empty();
      }
      KeyRange file =
          new KeyRange(
              ((Number) Conversions.fromByteBuffer(field.type(), low)).longValue(),
              ((Number) Conversions.fromByteBuffer(field.type(), high)).longValue());
      range = range == null ? file : range.span(file);
    }
    // A table whose files all have statistics but whose rows are all deleted: the range is only
    // wider than needed; the digests then hold no rows.
    return tasks.isEmpty() ? Optional.empty() : Optional.ofNullable(range);
  }

  @Override
  public List<BucketDigest> digests(KeyRange range, long width) {
    if (width < 1) {
      throw new IllegalArgumentException("A bucket is at least one key wide, not " + width);
    }
    long buckets = Long.divideUnsigned(range.last() - range.first(), width) + 1;
    List<Buckets> perFile =
        all.eachFile(
            overlapping(List.of(range)),
            records -> {
              Buckets sums = new Buckets(buckets);
              for (Record record : records) {
                long k = keyOf(record);
                if (range.contains(k)) {
                  sums.add(range.bucketOf(k, width), toRow.apply(record));
                }
              }
              return sums;
            });
    Buckets total = new Buckets(buckets);
    perFile.forEach(total::addAll);
    return total.digests(range, width);
  }

  @Override
  public CloseableIterator<Row> rows(List<KeyRange> ranges) {
    List<KeyRange> sorted = new ArrayList<>(ranges);
    sorted.sort((x, y) -> Long.compare(x.first(), y.first()));
    long[] firsts = sorted.stream().mapToLong(KeyRange::first).toArray();
    List<FileScanTask> matching = overlapping(sorted);
    return all.records(
        matching,
        record -> {
          long k = keyOf(record);
          int at = Arrays.binarySearch(firsts, k);
          int candidate = at >= 0 ? at : -at - 2;
          return candidate >= 0 && sorted.get(candidate).contains(k) ? toRow.apply(record) : null;
        });
  }

  @Override
  public boolean keysUnique() {
    // Iceberg does not enforce identifier fields: a table may hold a key twice.
    return false;
  }

  @Override
  public void close() {
    all.close();
  }

  /**
   * The planned data files whose key statistics overlap any of the ranges (all of them where a file
   * has no statistics): the one plan of the snapshot serves every call.
   */
  private List<FileScanTask> overlapping(List<KeyRange> ranges) {
    Types.NestedField field = table.schema().findField(key);
    List<FileScanTask> matching = new ArrayList<>();
    for (FileScanTask task : tasks) {
      Map<Integer, ByteBuffer> lower = task.file().lowerBounds();
      Map<Integer, ByteBuffer> upper = task.file().upperBounds();
      ByteBuffer low = lower == null ? null : lower.get(field.fieldId());
      ByteBuffer high = upper == null ? null : upper.get(field.fieldId());
      if (low == null || high == null) {
        matching.add(task);
        continue;
      }
      long first = ((Number) Conversions.fromByteBuffer(field.type(), low)).longValue();
      long last = ((Number) Conversions.fromByteBuffer(field.type(), high)).longValue();
      for (KeyRange range : ranges) {
        if (range.first() <= last && range.last() >= first) {
          matching.add(task);
          break;
        }
      }
    }
    return matching;
  }

  private long keyOf(Record record) {
    return ((Number) record.getField(key)).longValue();
  }

  /** Row counts and hash sums per bucket. */
  private static final class Buckets {
    private final long[] rows;
    private final long[] sums;
    private final TreeMap<Long, long[]> sparse;

    Buckets(long count) {
      boolean dense = count > 0 && count <= ARRAY_BUCKETS;
      rows = dense ? new long[(int) count] : null;
      sums = dense ? new long[(int) count] : null;
      sparse = dense ? null : new TreeMap<>(Long::compareUnsigned);
    }

    void add(long bucket, Row row) {
      add(bucket, 1, CanonicalForm.rowHash(row));
    }

    private void add(long bucket, long count, long hash) {
      if (rows != null) {
        rows[(int) bucket] += count;
        sums[(int) bucket] += hash;
      } else {
        long[] cell = sparse.computeIfAbsent(bucket, b -> new long[2]);
        cell[0] += count;
        cell[1] += hash;
      }
    }

    void addAll(Buckets other) {
      if (other.rows != null) {
        for (int i = 0; i < other.rows.length; i++) {
          if (other.rows[i] > 0) {
            add(i, other.rows[i], other.sums[i]);
          }
        }
      } else {
        other.sparse.forEach((bucket, cell) -> add(bucket, cell[0], cell[1]));
      }
    }

    List<BucketDigest> digests(KeyRange range, long width) {
      List<BucketDigest> digests = new ArrayList<>();
      if (rows != null) {
        for (int i = 0; i < rows.length; i++) {
          if (rows[i] > 0) {
            digests.add(new BucketDigest(range.bucket(width, i), rows[i], sums[i]));
          }
        }
      } else {
        sparse.forEach(
            (bucket, cell) ->
                digests.add(new BucketDigest(range.bucket(width, bucket), cell[0], cell[1])));
      }
      return digests;
    }
  }
}
