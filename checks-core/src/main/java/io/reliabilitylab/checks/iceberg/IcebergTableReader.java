package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableHistory;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Reads Iceberg tables at a snapshot into the lab's values, deletes applied. Uses no Flink class.
 * Row sets of a table read its Parquet data files in parallel, each delete file once, and offer
 * {@linkplain RowSet#keyRangeDigests key-range digests}; changelogs and other formats go through
 * Iceberg's generic reader.
 *
 * <p>The {@code orders} methods ({@link #current}, {@link #changelog(Table, long)}) read the lab's
 * reference tables; {@link #tableSchema}, {@link #rows} and {@link #changelog(Table, long,
 * TableSchema)} read any table whose columns have a {@link ColumnType}, and a changelog table in
 * the lab's layout ({@code op, event_id, before_event_id}, the row image's columns, then {@code
 * binlog_file, binlog_pos, row_index, gtid, source_ts}).
 *
 * <pre>{@code
 * Table current = warehouse.load(TableIdentifier.of("lab", "orders_current"));
 * long snapshotId = current.currentSnapshot().snapshotId();
 * RowSet rows = IcebergTableReader.rows(current, snapshotId, IcebergTableReader.tableSchema(current));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class IcebergTableReader {

  /** Snapshot summary entry: the Flink job that committed a snapshot. */
  public static final String FLINK_JOB_ID = "flink.job-id";

  /** Snapshot summary entry: the highest Flink checkpoint whose data a snapshot holds. */
  public static final String FLINK_MAX_COMMITTED_CHECKPOINT_ID =
      "flink.max-committed-checkpoint-id";

  private IcebergTableReader() {}

  /** The table's snapshots, oldest first, each with the Flink job and checkpoint that wrote it. */
  public static List<SnapshotInfo> snapshots(Table table) {
    Objects.requireNonNull(table, "table");
    List<SnapshotInfo> snapshots = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      snapshots.add(info(table, snapshot));
    }
    snapshots.sort(
        Comparator.comparing(SnapshotInfo::committedAt)
            .thenComparingLong(SnapshotInfo::snapshotId));
    return snapshots;
  }

  /** One snapshot's summary as a {@link SnapshotInfo}. */
  public static SnapshotInfo info(Table table, Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    String checkpoint = summary == null ? null : summary.get(FLINK_MAX_COMMITTED_CHECKPOINT_ID);
    return new SnapshotInfo(
        table.name(),
        snapshot.snapshotId(),
        Instant.ofEpochMilli(snapshot.timestampMillis()),
        snapshot.operation() == null ? "unknown" : snapshot.operation(),
        summary == null ? null : summary.get(FLINK_JOB_ID),
        checkpoint == null ? null : Long.valueOf(checkpoint));
  }

  /**
   * The current table's rows at a snapshot, deletes applied, as {@link TableSchema#ORDERS} rows.
   */
  public static RowSet current(Table table, long snapshotId) {
    Objects.requireNonNull(table, "table");
    return rows(table, snapshotId, OrdersTables.currentRowSchema(shortName(table)));
  }

  /**
   * Any table's rows at a snapshot, deletes applied, as rows of {@code schema}: its columns are
   * read by name (the table may have more) and must have the types {@link #tableSchema} gives them.
   */
  public static RowSet rows(Table table, long snapshotId, TableSchema schema) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(schema, "schema");
    requireSnapshot(table, snapshotId);
    requireColumns(table, schema.columns());
    String description = "iceberg " + table.name() + " @ snapshot " + snapshotId;
    List<String> names = schema.columns().stream().map(Column::name).toList();
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return schema;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<Row> open() {
        ParallelScan scan =
            new ParallelScan(
                table,
                snapshotId,
                table.schema().select(names),
                Expressions.alwaysTrue(),
                new CachedDeletes(table, snapshotId));
        Optional<List<FileScanTask>> tasks = scan.plan();
        if (tasks.isEmpty()) {
          scan.close();
          return iterate(
              () -> IcebergGenerics.read(table).useSnapshot(snapshotId).select(names).build(),
              record -> row(schema, record));
        }
        return scan.records(tasks.get(), RecordRows.of(schema)).closingAlso(scan);
      }

      @Override
      public Optional<KeyRangeDigests> keyRangeDigests() {
        return IcebergDigests.open(table, snapshotId, schema);
      }

      @Override
      public Optional<TableHistory<Row>> history(KeyShard shard) {
        return Optional.of(
            new IcebergHistory<>(
                table,
                snapshotId,
                table.schema().select(names),
                RecordRows.of(schema),
                Row::key,
                schema.keyColumns(),
                shard));
      }
    };
  }

  /**
   * Reads every record of the snapshot's Parquet data files as stored, in parallel, deletes not
   * applied, and returns how many there were: the floor a read of the table's rows is measured
   * against. Empty when a data file is not Parquet.
   */
  public static OptionalLong rawDataFileRecords(Table table, long snapshotId, TableSchema schema) {
    Objects.requireNonNull(table, "table");
    requireSnapshot(table, snapshotId);
    List<String> names = schema.columns().stream().map(Column::name).toList();
    try (ParallelScan scan =
        new ParallelScan(
            table,
            snapshotId,
            table.schema().select(names),
            Expressions.alwaysTrue(),
            new CachedDeletes(table, snapshotId))) {
      Optional<List<FileScanTask>> tasks = scan.plan();
      return tasks.isEmpty() ? OptionalLong.empty() : OptionalLong.of(scan.countRaw(tasks.get()));
    }
  }

  /**
   * The lab schema of an Iceberg table: its columns in table order, its identifier fields as the
   * key, and {@code event_id} as the event id column when it is a {@code long}.
   *
   * @throws IllegalArgumentException if the table has no identifier fields (use {@link
   *     #tableSchema(Table, List)}) or a column of a type the lab does not compare
   */
  public static TableSchema tableSchema(Table table) {
    Objects.requireNonNull(table, "table");
    List<String> keys = new ArrayList<>(table.schema().identifierFieldNames());
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(
          "Iceberg table "
              + table.name()
              + " has no identifier fields, so its key is unknown: give the key columns");
    }
    // identifierFieldNames() is a set: keep the key in column order.
    List<String> ordered = new ArrayList<>();
    for (Types.NestedField field : table.schema().columns()) {
      if (keys.contains(field.name())) {
        ordered.add(field.name());
      }
    }
    return tableSchema(table, ordered);
  }

  /** The lab schema of an Iceberg table with the given key columns. */
  public static TableSchema tableSchema(Table table, List<String> keyColumns) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(keyColumns, "keyColumns");
    return tableSchema(shortName(table), table.schema(), keyColumns);
  }

  /** The lab schema of an Iceberg schema, named {@code name}, with the given key columns. */
  public static TableSchema tableSchema(String name, Schema schema, List<String> keyColumns) {
    List<Column> columns = new ArrayList<>();
    String eventId = null;
    for (Types.NestedField field : schema.columns()) {
      ColumnType type = columnType(field.type());
      if (type == null) {
        throw new IllegalArgumentException(
            "Column "
                + field.name()
                + " of Iceberg table "
                + name
                + " has type "
                + field.type()
                + ", which the lab does not compare (it reads long, int, string, boolean, double,"
                + " decimal, timestamp and timestamptz)");
      }
      columns.add(new Column(field.name(), type));
      if (field.name().equals(OrdersTables.EVENT_ID) && type == ColumnType.BIGINT) {
        eventId = field.name();
      }
    }
    return new TableSchema(name, columns, keyColumns, eventId);
  }

  /** The lab column type of an Iceberg type, or null if the lab does not compare such columns. */
  public static @Nullable ColumnType columnType(Type type) {
    return switch (type.typeId()) {
      case LONG -> ColumnType.BIGINT;
      case INTEGER -> ColumnType.INT;
      case STRING -> ColumnType.VARCHAR;
      case BOOLEAN -> ColumnType.BOOLEAN;
      case DOUBLE -> ColumnType.DOUBLE;
      case DECIMAL -> ColumnType.DECIMAL;
      case TIMESTAMP -> ColumnType.TIMESTAMP;
      default -> null;
    };
  }

  /** The changelog table's envelopes at a snapshot, images as {@link TableSchema#ORDERS} rows. */
  public static Changelog changelog(Table table, long snapshotId) {
    Objects.requireNonNull(table, "table");
    return changelog(table, snapshotId, OrdersTables.currentRowSchema(shortName(table)));
  }

  /**
   * A changelog table in the lab's layout at a snapshot, its row images read as rows of {@code
   * image} (by column name; the image's event id column, if any, is the envelope's {@code
   * event_id}).
   */
  public static Changelog changelog(Table table, long snapshotId, TableSchema image) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(image, "image");
    requireSnapshot(table, snapshotId);
    requireChangelogLayout(table, image);
    return changelogOf(
        image,
        "iceberg " + table.name() + " @ snapshot " + snapshotId,
        () -> IcebergGenerics.read(table).useSnapshot(snapshotId).build(),
        shard ->
            new IcebergHistory<>(
                table,
                snapshotId,
                table.schema(),
                record -> changeEvent(image, record),
                ChangeEvent::key,
                image.keyColumns(),
                shard));
  }

  /**
   * Whether the changelog table at a snapshot holds an envelope with this event id. The filter is
   * pushed down, so files whose statistics exclude the id are not read.
   */
  public static boolean changelogContains(Table table, long snapshotId, long eventId) {
    Objects.requireNonNull(table, "table");
    requireSnapshot(table, snapshotId);
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table)
            .useSnapshot(snapshotId)
            .where(Expressions.equal(OrdersTables.EVENT_ID, eventId))
            .select(OrdersTables.EVENT_ID)
            .build()) {
      for (Record record : records) {
        // The pushed-down filter prunes files; a row's own value decides.
        if (Long.valueOf(eventId).equals(record.getField(OrdersTables.EVENT_ID))) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("Closing a scan of " + table.name() + " failed", e);
    }
  }

  /**
   * Whether the changelog table at a snapshot holds an envelope of this operation and event id (a
   * delete's carries the deleted image's event id). The filter is pushed down.
   */
  public static boolean changelogContains(Table table, long snapshotId, ChangeOp op, long eventId) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(op, "op");
    requireSnapshot(table, snapshotId);
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table)
            .useSnapshot(snapshotId)
            .where(
                Expressions.and(
                    Expressions.equal(OrdersTables.EVENT_ID, eventId),
                    Expressions.equal(OrdersTables.OP, op.code())))
            .select(OrdersTables.EVENT_ID, OrdersTables.OP)
            .build()) {
      for (Record record : records) {
        if (Long.valueOf(eventId).equals(record.getField(OrdersTables.EVENT_ID))
            && op.code().equals(String.valueOf(record.getField(OrdersTables.OP)))) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("Closing a scan of " + table.name() + " failed", e);
    }
  }

  /**
   * The envelopes appended to the changelog table after snapshot {@code fromExclusive} up to and
   * including {@code toInclusive}; {@code fromExclusive} null means from the table's start. The
   * changelog table is append-only, so this is exactly what those commits added.
   */
  public static Changelog changelogAppended(
      Table table, @Nullable Long fromExclusive, long toInclusive) {
    Objects.requireNonNull(table, "table");
    requireSnapshot(table, toInclusive);
    String description =
        "iceberg "
            + table.name()
            + " appended in ("
            + (fromExclusive == null ? "start" : fromExclusive)
            + ", "
            + toInclusive
            + "]";
    return changelogOf(
        OrdersTables.currentRowSchema(shortName(table)),
        description,
        () ->
            fromExclusive == null
                ? IcebergGenerics.read(table).useSnapshot(toInclusive).build()
                : IcebergGenerics.read(table).appendsBetween(fromExclusive, toInclusive).build(),
        null);
  }

  private static Changelog changelogOf(
      TableSchema schema,
      String description,
      Supplier<CloseableIterable<Record>> scan,
      @Nullable Function<KeyShard, TableHistory<ChangeEvent>> history) {
    return new Changelog() {
      @Override
      public TableSchema schema() {
        return schema;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<ChangeEvent> open() {
        return iterate(scan, record -> changeEvent(schema, record));
      }

      @Override
      public Optional<TableHistory<ChangeEvent>> history(KeyShard shard) {
        return history == null ? Optional.empty() : Optional.of(history.apply(shard));
      }
    };
  }

  /** One changelog record as an envelope. */
  static ChangeEvent changeEvent(TableSchema schema, Record record) {
    ChangeOp op = ChangeOp.ofCode((String) Objects.requireNonNull(record.getField("op"), "op"));
    Long eventId = (Long) record.getField("event_id");
    if (eventId == null) {
      throw new IllegalStateException("A changelog row has no event_id: " + record);
    }
    Long beforeEventId = (Long) record.getField("before_event_id");
    Row image = row(schema, record);
    String file = (String) record.getField("binlog_file");
    Long pos = (Long) record.getField("binlog_pos");
    Integer rowIndex = (Integer) record.getField("row_index");
    SourcePosition position =
        new SourcePosition(
            file == null ? "" : file,
            pos == null ? 0L : pos,
            rowIndex == null ? 0 : rowIndex,
            (String) record.getField("gtid"));
    Instant sourceTs = instant(record.getField("source_ts"));
    return new ChangeEvent(
        op, eventId, beforeEventId, image, position, sourceTs == null ? Instant.EPOCH : sourceTs);
  }

  /** One record as a row of {@code schema}, its columns read by name. */
  static Row row(TableSchema schema, Record record) {
    List<Column> columns = schema.columns();
    List<@Nullable Object> values = new ArrayList<>(columns.size());
    for (Column column : columns) {
      values.add(value(column, record.getField(column.name())));
    }
    return new Row(schema, values);
  }

  static @Nullable Object value(Column column, @Nullable Object value) {
    if (value == null) {
      return null;
    }
    return switch (column.type()) {
      case TIMESTAMP -> instant(value);
      case BIGINT, INT, VARCHAR, BOOLEAN, DOUBLE -> value;
      case DECIMAL -> (BigDecimal) value;
    };
  }

  private static void requireColumns(Table table, Collection<Column> columns) {
    List<String> differing = new ArrayList<>();
    for (Column column : columns) {
      Types.NestedField field = table.schema().findField(column.name());
      if (field == null) {
        differing.add(column.name() + " (missing)");
      } else if (columnType(field.type()) != column.type()) {
        differing.add(column.name() + " (" + field.type() + ", expected " + column.type() + ")");
      }
    }
    if (!differing.isEmpty()) {
      throw new IllegalArgumentException(
          "Iceberg table " + table.name() + " does not have the columns to read: " + differing);
    }
  }

  private static void requireChangelogLayout(Table table, TableSchema image) {
    for (String name : List.of("op", OrdersTables.EVENT_ID)) {
      if (table.schema().findField(name) == null) {
        throw new IllegalArgumentException(
            "Iceberg table "
                + table.name()
                + " is not a changelog in the lab's layout: it has no column "
                + name);
      }
    }
    requireColumns(table, image.columns());
  }

  private static @Nullable Instant instant(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof OffsetDateTime time) {
      return time.toInstant();
    }
    if (value instanceof LocalDateTime local) {
      // A timestamp without zone: the lab's timestamps are UTC wall-clock values.
      return local.toInstant(ZoneOffset.UTC);
    }
    throw new IllegalStateException(
        "Expected a timestamp value (OffsetDateTime or LocalDateTime), got "
            + value.getClass().getName());
  }

  private static void requireSnapshot(Table table, long snapshotId) {
    if (table.snapshot(snapshotId) == null) {
      throw new IllegalArgumentException(
          "Table "
              + table.name()
              + " has no snapshot "
              + snapshotId
              + "; refresh the table or list its snapshots first");
    }
  }

  private static String shortName(Table table) {
    String name = table.name();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? name : name.substring(dot + 1);
  }

  private static <T> CloseableIterator<T> iterate(
      Supplier<CloseableIterable<Record>> scan, Function<Record, T> convert) {
    CloseableIterable<Record> iterable = scan.get();
    Iterator<Record> records = iterable.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return records.hasNext();
      }

      @Override
      public T next() {
        return convert.apply(records.next());
      }

      @Override
      public void close() {
        try {
          iterable.close();
        } catch (IOException e) {
          throw new UncheckedIOException("Closing an Iceberg scan failed", e);
        }
      }
    };
  }
}
