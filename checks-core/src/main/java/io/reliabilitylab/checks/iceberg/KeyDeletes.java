package io.reliabilitylab.checks.iceberg;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Equality deletes by one integral key column, as the highest data sequence number of a delete of
 * each key: a row of a data file with sequence number {@code s} is deleted iff some equality delete
 * with a higher sequence number holds its key (the rule of the Iceberg spec for unpartitioned
 * tables, where every equality delete is global). Memory: one entry per deleted key.
 */
final class KeyDeletes {
  private final String column;
  private final LongMaxTable highestSequence;

  private KeyDeletes(String column, LongMaxTable highestSequence) {
    this.column = column;
    this.highestSequence = highestSequence;
  }

  String column() {
    return column;
  }

  boolean isEmpty() {
    return highestSequence.size() == 0;
  }

  boolean deletes(long key, long dataSequence) {
    return highestSequence.get(key) > dataSequence;
  }

  static Optional<KeyDeletes> build(Table table, List<FileScanTask> tasks, ExecutorService pool) {
    Map<String, DeleteFile> equality = new java.util.LinkedHashMap<>();
    Integer fieldId = null;
    for (FileScanTask task : tasks) {
      if (!task.spec().isUnpartitioned()) {
        return Optional.empty();
      }
      for (DeleteFile file : task.deletes()) {
        if (file.content() != FileContent.EQUALITY_DELETES) {
          continue;
        }
        List<Integer> ids = file.equalityFieldIds();
        if (ids == null
            || ids.size() != 1
            || (fieldId != null && !fieldId.equals(ids.get(0)))
            || file.format() != FileFormat.PARQUET
            || !table.specs().get(file.specId()).isUnpartitioned()) {
          return Optional.empty();
        }
        fieldId = ids.get(0);
        equality.putIfAbsent(file.location(), file);
      }
    }
    if (fieldId == null) {
      // No equality deletes: an index that deletes nothing, keyed by the first identifier field
      // (or any integral column) only so that rows can be looked up.
      Optional<String> key = integralColumn(table, table.schema().identifierFieldIds());
      return key.map(column -> new KeyDeletes(column, new LongMaxTable(0)));
    }
    Types.NestedField field = table.schema().findField(fieldId);
    if (field == null
        || (field.type().typeId() != Type.TypeID.LONG
            && field.type().typeId() != Type.TypeID.INTEGER)) {
      return Optional.empty();
    }
    Schema keyOnly = table.schema().select(field.name());
    List<Future<long[]>> reads = new ArrayList<>();
    for (DeleteFile file : equality.values()) {
      reads.add(pool.submit(() -> keys(table.io(), file, keyOnly)));
    }
    long deleteRows = 0;
    for (DeleteFile file : equality.values()) {
      deleteRows += file.recordCount();
    }
    LongMaxTable highest = new LongMaxTable(deleteRows);
    try {
      int i = 0;
      for (DeleteFile file : equality.values()) {
        long sequence = file.dataSequenceNumber();
        for (long key : reads.get(i++).get()) {
          highest.putMax(key, sequence);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading deletes of " + table.name(), e);
    } catch (ExecutionException e) {
      throw ParallelScan.rethrow(e.getCause());
    }
    return Optional.of(new KeyDeletes(field.name(), highest));
  }

  private static Optional<String> integralColumn(Table table, java.util.Set<Integer> ids) {
    if (ids.size() != 1) {
      return Optional.empty();
    }
    Types.NestedField field = table.schema().findField(ids.iterator().next());
    return field != null
            && (field.type().typeId() == Type.TypeID.LONG
                || field.type().typeId() == Type.TypeID.INTEGER)
        ? Optional.of(field.name())
        : Optional.empty();
  }

  private static long[] keys(FileIO io, DeleteFile file, Schema keyOnly) throws IOException {
    long[] keys = new long[(int) Math.min(Integer.MAX_VALUE - 8, file.recordCount())];
    int n = 0;
    try (CloseableIterable<Record> records =
        Parquet.read(io.newInputFile(file.location()))
            .project(keyOnly)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(keyOnly, fileSchema))
            .build()) {
      for (Record record : records) {
        if (n == keys.length) {
          keys = Arrays.copyOf(keys, Math.max(16, n * 2));
        }
        keys[n++] = ((Number) record.get(0)).longValue();
      }
    }
    return n == keys.length ? keys : Arrays.copyOf(keys, n);
  }
}
