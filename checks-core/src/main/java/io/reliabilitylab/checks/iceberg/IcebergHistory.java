package io.reliabilitylab.checks.iceberg;

import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.TableCommit;
import io.reliabilitylab.spi.data.TableHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteSchemaUtil;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.jspecify.annotations.Nullable;

/**
 * An Iceberg table's snapshots, oldest first, as what each commit made visible and invisible. Keeps
 * the live rows of one {@link KeyShard} (where each sits: data file, position, data sequence
 * number) and reads each commit's own files: removed data files drop their rows, equality deletes
 * drop older rows of their keys, position deletes drop their positions, and added data files add
 * their rows less the deletes that apply to them (the same commit's position deletes, or for a
 * rewrite whose files keep an older sequence number, those Iceberg's planner applies). Parquet
 * files only; deletion vectors and equality deletes on other columns than the key are refused.
 */
final class IcebergHistory<T> implements TableHistory<T> {

  private final Table table;
  private final Schema projection;
  private final Function<Record, T> convert;
  private final Function<T, RowKey> keyOf;
  private final KeyShard shard;
  private final List<String> keyColumns;
  private final Deque<Snapshot> pending = new ArrayDeque<>();
  private final String start;
  private final Map<String, Map<Long, Live<T>>> byFile = new HashMap<>();
  private final Map<RowKey, List<Live<T>>> byKey = new HashMap<>();
  private boolean wholeFirst;

  /** A visible row: where it is stored and under which data sequence number. */
  private record Live<T>(String file, long position, long sequence, T value, RowKey key) {}

  /**
   * The history of {@code table} up to and including {@code snapshotId}, its records read in {@code
   * projection} and converted by {@code convert}; {@code keyOf} gives a value's key, whose columns
   * are {@code keyColumns} (the columns equality deletes must name).
   */
  IcebergHistory(
      Table table,
      long snapshotId,
      Schema projection,
      Function<Record, T> convert,
      Function<T, RowKey> keyOf,
      List<String> keyColumns,
      KeyShard shard) {
    this.table = table;
    this.projection = projection;
    this.convert = convert;
    this.keyOf = keyOf;
    this.keyColumns = List.copyOf(keyColumns);
    this.shard = shard;
    for (Snapshot snapshot : SnapshotUtil.ancestorsOf(snapshotId, table::snapshot)) {
      pending.addFirst(snapshot);
    }
    Snapshot oldest = pending.peekFirst();
    if (oldest != null && oldest.parentId() != null) {
      wholeFirst = true;
      start =
          "snapshot "
              + oldest.snapshotId()
              + ", read whole: its ancestors from snapshot "
              + oldest.parentId()
              + " back are expired";
    } else {
      start = "the table's first snapshot";
    }
  }

  @Override
  public String start() {
    return start;
  }

  @Override
  public Optional<TableCommit<T>> next() {
    Snapshot snapshot = pending.pollFirst();
    if (snapshot == null) {
      return Optional.empty();
    }
    List<T> removed = new ArrayList<>();
    List<T> added = new ArrayList<>();
    if (wholeFirst) {
      wholeFirst = false;
      for (FileScanTask task : plan(snapshot).values()) {
        addRows(task.file(), task.deletes(), added);
      }
    } else {
      apply(snapshot, removed, added);
    }
    return Optional.of(new TableCommit<>(describe(snapshot), removed, added));
  }

  private void apply(Snapshot snapshot, List<T> removed, List<T> added) {
    for (DataFile file : snapshot.removedDataFiles(table.io())) {
      Map<Long, Live<T>> rows = byFile.remove(file.location());
      if (rows != null) {
        for (Live<T> live : rows.values()) {
          unindexKey(live);
          removed.add(live.value());
        }
      }
    }
    List<DeleteFile> deletes = new ArrayList<>();
    snapshot.addedDeleteFiles(table.io()).forEach(deletes::add);
    long sequence = snapshot.sequenceNumber();
    for (DeleteFile delete : deletes) {
      if (delete.content() == FileContent.EQUALITY_DELETES) {
        // An equality delete hides the rows of its keys written before it (lower sequence).
        forEachDeletedKey(
            delete,
            key -> {
              List<Live<T>> rows = byKey.get(key);
              if (rows != null) {
                for (Live<T> live : List.copyOf(rows)) {
                  if (live.sequence() < sequence) {
                    drop(live, removed);
                  }
                }
              }
            });
      } else {
        forEachDeletedPosition(
            delete,
            (file, position) -> {
              Map<Long, Live<T>> rows = byFile.get(file);
              Live<T> live = rows == null ? null : rows.get(position);
              if (live != null) {
                drop(live, removed);
              }
            });
      }
    }
    Map<String, FileScanTask> planned = null;
    for (DataFile file : snapshot.addedDataFiles(table.io())) {
      Long fileSequence = file.dataSequenceNumber();
      if (fileSequence != null && fileSequence < sequence) {
        // A rewrite keeps its files' older sequence number: later deletes may apply to them.
        if (planned == null) {
          planned = plan(snapshot);
        }
        FileScanTask task = planned.get(file.location());
        addRows(file, task == null ? List.of() : task.deletes(), added);
      } else {
        addRows(file, sameCommitPositionDeletes(deletes, file.location()), added);
      }
    }
  }

  private static List<DeleteFile> sameCommitPositionDeletes(List<DeleteFile> deletes, String file) {
    List<DeleteFile> positional = new ArrayList<>();
    for (DeleteFile delete : deletes) {
      if (delete.content() == FileContent.POSITION_DELETES
          && (delete.referencedDataFile() == null || file.equals(delete.referencedDataFile()))) {
        positional.add(delete);
      }
    }
    return positional;
  }

  private void addRows(DataFile file, List<DeleteFile> deletes, List<T> added) {
    Set<Long> deletedPositions = new HashSet<>();
    Set<RowKey> deletedKeys = new HashSet<>();
    for (DeleteFile delete : deletes) {
      if (delete.content() == FileContent.EQUALITY_DELETES) {
        forEachDeletedKey(delete, deletedKeys::add);
      } else {
        forEachDeletedPosition(
            delete,
            (path, position) -> {
              if (path.equals(file.location())) {
                deletedPositions.add(position);
              }
            });
      }
    }
    long sequence = file.dataSequenceNumber() == null ? 0 : file.dataSequenceNumber();
    long position = 0;
    try (CloseableIterable<Record> records = parquet(file, projection)) {
      for (Record record : records) {
        long at = position++;
        if (deletedPositions.contains(at)) {
          continue;
        }
        T value = convert.apply(record);
        RowKey key = keyOf.apply(value);
        if (!shard.contains(key) || deletedKeys.contains(key)) {
          continue;
        }
        Live<T> live = new Live<>(file.location(), at, sequence, value, key);
        byFile.computeIfAbsent(live.file(), f -> new HashMap<>()).put(at, live);
        byKey.computeIfAbsent(key, k -> new ArrayList<>(1)).add(live);
        added.add(value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + file.location() + " failed", e);
    }
  }

  private void drop(Live<T> live, List<T> removed) {
    Map<Long, Live<T>> rows = byFile.get(live.file());
    if (rows != null && rows.remove(live.position()) != null) {
      if (rows.isEmpty()) {
        byFile.remove(live.file());
      }
      unindexKey(live);
      removed.add(live.value());
    }
  }

  private void unindexKey(Live<T> live) {
    List<Live<T>> rows = byKey.get(live.key());
    if (rows != null) {
      rows.remove(live);
      if (rows.isEmpty()) {
        byKey.remove(live.key());
      }
    }
  }

  private void forEachDeletedKey(DeleteFile delete, Consumer<RowKey> action) {
    List<String> fields = new ArrayList<>();
    for (int id : delete.equalityFieldIds()) {
      fields.add(table.schema().findColumnName(id));
    }
    if (!fields.equals(keyColumns)) {
      throw new UnsupportedOperationException(
          "Equality delete file "
              + delete.location()
              + " deletes by "
              + fields
              + ", not by the key "
              + keyColumns
              + ": the history of such a table is not read");
    }
    Schema schema = table.schema().select(fields);
    List<Column> columns = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      ColumnType type = IcebergTableReader.columnType(field.type());
      if (type == null) {
        throw new UnsupportedOperationException(
            "Key column "
                + field.name()
                + " has type "
                + field.type()
                + ", which the lab reads not");
      }
      columns.add(new Column(field.name(), type));
    }
    try (CloseableIterable<Record> records = parquet(delete, schema)) {
      for (Record record : records) {
        Object[] parts = new Object[columns.size()];
        for (int i = 0; i < parts.length; i++) {
          parts[i] = IcebergTableReader.value(columns.get(i), record.get(i));
        }
        RowKey key = RowKey.of(parts);
        if (shard.contains(key)) {
          action.accept(key);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + delete.location() + " failed", e);
    }
  }

  /** Calls {@code action} with each (data file, position) a position delete file deletes. */
  private void forEachDeletedPosition(DeleteFile delete, PositionAction action) {
    if (delete.format() == FileFormat.PUFFIN) {
      throw new UnsupportedOperationException(
          "Deletion vector " + delete.location() + ": the history of a v3 table is not read");
    }
    Schema schema = DeleteSchemaUtil.pathPosSchema();
    try (CloseableIterable<Record> records = parquet(delete, schema)) {
      for (Record record : records) {
        action.accept(record.get(0).toString(), (Long) record.get(1));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + delete.location() + " failed", e);
    }
  }

  @FunctionalInterface
  private interface PositionAction {
    void accept(String file, long position);
  }

  private CloseableIterable<Record> parquet(ContentFile<?> file, Schema schema) {
    if (file.format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException(
          file.location() + " is " + file.format() + ": the history reads Parquet files only");
    }
    return Parquet.read(table.io().newInputFile(file.location()))
        .project(schema)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
        .build();
  }

  /** The snapshot's data files with the deletes Iceberg's planner applies to each, by location. */
  private Map<String, FileScanTask> plan(Snapshot snapshot) {
    Map<String, FileScanTask> tasks = new HashMap<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      for (FileScanTask task : planned) {
        tasks.put(task.file().location(), task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Planning snapshot " + snapshot.snapshotId() + " failed", e);
    }
    return tasks;
  }

  private static String describe(Snapshot snapshot) {
    @Nullable String checkpoint =
        snapshot.summary() == null
            ? null
            : snapshot.summary().get(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID);
    return "snapshot "
        + snapshot.snapshotId()
        + " ("
        + snapshot.operation()
        + ", sequence "
        + snapshot.sequenceNumber()
        + (checkpoint == null ? "" : ", checkpoint " + checkpoint)
        + ")";
  }

  @Override
  public void close() {
    byFile.clear();
    byKey.clear();
    pending.clear();
  }
}
