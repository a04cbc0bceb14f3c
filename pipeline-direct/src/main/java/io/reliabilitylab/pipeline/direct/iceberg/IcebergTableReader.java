package io.reliabilitylab.pipeline.direct.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Reads the direct pipeline's Iceberg tables at a snapshot into the lab's values, with Iceberg's
 * generic reader, which applies equality and position deletes. Uses no Flink class.
 *
 * <pre>{@code
 * Table current = warehouse.load(TableIdentifier.of("lab", "orders_current"));
 * long snapshotId = current.currentSnapshot().snapshotId();
 * RowSet rows = IcebergTableReader.current(current, snapshotId);
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
    requireSnapshot(table, snapshotId);
    TableSchema schema = OrdersTables.currentRowSchema(shortName(table));
    String description = "iceberg " + table.name() + " @ snapshot " + snapshotId;
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
        return iterate(
            () -> IcebergGenerics.read(table).useSnapshot(snapshotId).build(),
            record -> currentRow(schema, record));
      }
    };
  }

  /** The changelog table's envelopes at a snapshot. */
  public static Changelog changelog(Table table, long snapshotId) {
    Objects.requireNonNull(table, "table");
    requireSnapshot(table, snapshotId);
    return changelogOf(
        table,
        "iceberg " + table.name() + " @ snapshot " + snapshotId,
        () -> IcebergGenerics.read(table).useSnapshot(snapshotId).build());
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
        table,
        description,
        () ->
            fromExclusive == null
                ? IcebergGenerics.read(table).useSnapshot(toInclusive).build()
                : IcebergGenerics.read(table).appendsBetween(fromExclusive, toInclusive).build());
  }

  private static Changelog changelogOf(
      Table table, String description, Supplier<CloseableIterable<Record>> scan) {
    TableSchema schema = OrdersTables.currentRowSchema(shortName(table));
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
    Row image =
        schema.row(
            record.getField("order_id"),
            record.getField("business_key"),
            record.getField("customer_id"),
            record.getField("amount_cents"),
            record.getField("status"),
            eventId,
            record.getField("seed"),
            instant(record.getField("updated_at")));
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

  static Row currentRow(TableSchema schema, Record record) {
    return schema.row(
        record.getField("order_id"),
        record.getField("business_key"),
        record.getField("customer_id"),
        record.getField("amount_cents"),
        record.getField("status"),
        record.getField("event_id"),
        record.getField("seed"),
        instant(record.getField("updated_at")));
  }

  private static @Nullable Instant instant(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof OffsetDateTime time) {
      return time.toInstant();
    }
    throw new IllegalStateException(
        "Expected a timestamptz value (OffsetDateTime), got " + value.getClass().getName());
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
