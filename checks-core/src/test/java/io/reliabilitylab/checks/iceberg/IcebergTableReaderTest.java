package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergTableReaderTest {

  private static final OffsetDateTime UPDATED =
      OffsetDateTime.of(2026, 1, 1, 0, 0, 1, 123_456_000, ZoneOffset.UTC);

  @TempDir Path temp;
  private IcebergWarehouse warehouse;
  private Table current;
  private Table changelog;

  @BeforeEach
  void createTables() {
    warehouse = IcebergWarehouse.open(temp.resolve("warehouse"));
    warehouse.createOrdersTablesIfAbsent(OrdersTables.NAMESPACE);
    current = warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
    changelog = warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CHANGELOG));
  }

  @AfterEach
  void close() {
    warehouse.close();
  }

  @Test
  void createsFormatV2TablesOnceAndLoadsThemAgain() {
    warehouse.createOrdersTablesIfAbsent(OrdersTables.NAMESPACE);

    assertThat(((HasTableOperations) current).operations().current().formatVersion()).isEqualTo(2);
    assertThat(((HasTableOperations) changelog).operations().current().formatVersion())
        .isEqualTo(2);
    assertThat(current.schema().identifierFieldNames()).containsExactly("order_id");
    assertThat(current.spec().isUnpartitioned()).isTrue();
  }

  @Test
  void readsTheCurrentTableWithEqualityDeletesApplied() throws IOException {
    current
        .newAppend()
        .appendFile(dataFile(current, List.of(currentRecord(1, 10), currentRecord(2, 20))))
        .set(IcebergTableReader.FLINK_JOB_ID, "job-a")
        .set(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID, "7")
        .commit();
    long first = current.currentSnapshot().snapshotId();
    current
        .newRowDelta()
        .addDeletes(equalityDelete(current, 1L))
        .set(IcebergTableReader.FLINK_JOB_ID, "job-a")
        .set(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID, "8")
        .commit();
    long second = current.currentSnapshot().snapshotId();

    assertThat(rows(first))
        .extracting(row -> row.get("order_id"))
        .containsExactlyInAnyOrder(1L, 2L);
    List<Row> after = rows(second);
    assertThat(after).hasSize(1);
    assertThat(after.get(0).get("event_id")).isEqualTo(20L);
    assertThat(after.get(0).get("updated_at")).isEqualTo(UPDATED.toInstant());

    List<SnapshotInfo> snapshots = IcebergTableReader.snapshots(current);
    assertThat(snapshots).extracting(SnapshotInfo::snapshotId).containsExactly(first, second);
    assertThat(snapshots).extracting(SnapshotInfo::committedCheckpointId).containsExactly(7L, 8L);
    assertThat(snapshots).extracting(SnapshotInfo::flinkJobId).containsOnly("job-a");
  }

  @Test
  void readsChangelogRowsAsEnvelopesAndAppendsPerSnapshot() throws IOException {
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("c", 10, null, 0))))
        .commit();
    long first = changelog.currentSnapshot().snapshotId();
    changelog
        .newAppend()
        .appendFile(
            dataFile(
                changelog,
                List.of(changelogRecord("u", 11, 10L, 0), changelogRecord("d", 11, 11L, 1))))
        .commit();
    long second = changelog.currentSnapshot().snapshotId();

    List<ChangeEvent> all = events(IcebergTableReader.changelog(changelog, second).open());
    assertThat(all)
        .extracting(ChangeEvent::identity)
        .containsExactlyInAnyOrder("c:10", "u:11", "d:11");
    ChangeEvent update =
        all.stream().filter(e -> e.op() == ChangeOp.UPDATE).findFirst().orElseThrow();
    assertThat(update.beforeEventId()).isEqualTo(10L);
    assertThat(update.position())
        .isEqualTo(new SourcePosition("mysql-bin.000001", 400, 0, "0-1-5"));
    assertThat(update.sourceTimestamp()).isEqualTo(Instant.parse("2026-01-01T00:00:02Z"));
    assertThat(update.row().get("event_id")).isEqualTo(11L);

    assertThat(events(IcebergTableReader.changelogAppended(changelog, first, second).open()))
        .extracting(ChangeEvent::identity)
        .containsExactlyInAnyOrder("u:11", "d:11");
    assertThat(events(IcebergTableReader.changelogAppended(changelog, null, first).open()))
        .extracting(ChangeEvent::identity)
        .containsExactly("c:10");
  }

  @Test
  void refusesASnapshotTheTableDoesNotHave() {
    assertThatThrownBy(() -> IcebergTableReader.current(current, 42L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no snapshot 42");
  }

  @Test
  void mapsAnyTableToALabSchemaAndReadsItsRows() throws IOException {
    Schema schema =
        new Schema(
            List.of(
                Types.NestedField.required(1, "tenant", Types.StringType.get()),
                Types.NestedField.required(2, "id", Types.IntegerType.get()),
                Types.NestedField.optional(3, "active", Types.BooleanType.get()),
                Types.NestedField.optional(4, "ratio", Types.DoubleType.get()),
                Types.NestedField.optional(5, "price", Types.DecimalType.of(10, 2)),
                Types.NestedField.optional(6, "seen_at", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(7, "event_id", Types.LongType.get())),
            Set.of(1, 2));
    Table table =
        warehouse.createIfAbsent(
            TableIdentifier.of("lab", "accounts"),
            schema,
            PartitionSpec.unpartitioned(),
            OrdersTables.PROPERTIES);

    TableSchema lab = IcebergTableReader.tableSchema(table);

    assertThat(lab.name()).isEqualTo("accounts");
    assertThat(lab.keyColumns()).containsExactly("tenant", "id");
    assertThat(lab.eventIdColumn()).isEqualTo("event_id");
    assertThat(lab.columns())
        .extracting(Column::type)
        .containsExactly(
            ColumnType.VARCHAR,
            ColumnType.INT,
            ColumnType.BOOLEAN,
            ColumnType.DOUBLE,
            ColumnType.DECIMAL,
            ColumnType.TIMESTAMP,
            ColumnType.BIGINT);

    Record record = GenericRecord.create(schema);
    record.setField("tenant", "t1");
    record.setField("id", 7);
    record.setField("active", true);
    record.setField("ratio", 0.5);
    record.setField("price", new BigDecimal("12.34"));
    record.setField("seen_at", LocalDateTime.of(2026, 1, 1, 0, 0, 1, 123_456_000));
    record.setField("event_id", 99L);
    table.newAppend().appendFile(dataFile(table, List.of(record))).commit();
    long snapshot = table.currentSnapshot().snapshotId();

    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> iterator = IcebergTableReader.rows(table, snapshot, lab).open()) {
      iterator.forEachRemaining(rows::add);
    }
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).values())
        .containsExactly("t1", 7, true, 0.5, new BigDecimal("12.34"), UPDATED.toInstant(), 99L);

    TableSchema narrower =
        new TableSchema(
            "accounts",
            List.of(new Column("id", ColumnType.INT), new Column("ratio", ColumnType.DOUBLE)),
            List.of("id"),
            null);
    List<Row> projected = new ArrayList<>();
    try (CloseableIterator<Row> iterator =
        IcebergTableReader.rows(table, snapshot, narrower).open()) {
      iterator.forEachRemaining(projected::add);
    }
    assertThat(projected.get(0).values()).containsExactly(7, 0.5);
  }

  @Test
  void namesTheColumnsThatDoNotMatchTheSchemaToRead() {
    TableSchema wrong =
        new TableSchema(
            "orders_current",
            List.of(
                new Column("order_id", ColumnType.BIGINT),
                new Column("seed", ColumnType.BIGINT),
                new Column("colour", ColumnType.VARCHAR)),
            List.of("order_id"),
            null);
    current.newAppend().commit();
    long snapshot = current.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> IcebergTableReader.rows(current, snapshot, wrong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seed (int, expected BIGINT)")
        .hasMessageContaining("colour (missing)");
  }

  @Test
  void refusesATableWithoutIdentifierFieldsOrWithAnUncomparableColumn() {
    Table keyless =
        warehouse.createIfAbsent(
            TableIdentifier.of("lab", "keyless"),
            new Schema(Types.NestedField.optional(1, "id", Types.LongType.get())),
            PartitionSpec.unpartitioned(),
            Map.of());
    assertThatThrownBy(() -> IcebergTableReader.tableSchema(keyless))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no identifier fields");
    assertThat(IcebergTableReader.tableSchema(keyless, List.of("id")).keyColumns())
        .containsExactly("id");

    Table binary =
        warehouse.createIfAbsent(
            TableIdentifier.of("lab", "blobs"),
            new Schema(
                List.of(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "payload", Types.BinaryType.get())),
                Set.of(1)),
            PartitionSpec.unpartitioned(),
            Map.of());
    assertThatThrownBy(() -> IcebergTableReader.tableSchema(binary))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload")
        .hasMessageContaining("binary");
  }

  @Test
  void findsAnEventIdInTheChangelogWithTheFilterPushedDown() throws IOException {
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("c", 10, null, 0))))
        .commit();
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("u", 11, 10L, 0))))
        .commit();
    long snapshot = changelog.currentSnapshot().snapshotId();

    assertThat(IcebergTableReader.changelogContains(changelog, snapshot, 10L)).isTrue();
    assertThat(IcebergTableReader.changelogContains(changelog, snapshot, 11L)).isTrue();
    assertThat(IcebergTableReader.changelogContains(changelog, snapshot, 12L)).isFalse();
  }

  @Test
  void findsADeleteByItsOperationAndTheDeletedImagesEventId() throws IOException {
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("c", 10, null, 0))))
        .commit();
    long beforeDelete = changelog.currentSnapshot().snapshotId();
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("d", 10, 10L, 0))))
        .commit();
    long afterDelete = changelog.currentSnapshot().snapshotId();

    // event id 10 is there before the delete arrives: only the operation tells them apart
    assertThat(IcebergTableReader.changelogContains(changelog, beforeDelete, 10L)).isTrue();
    assertThat(IcebergTableReader.changelogContains(changelog, beforeDelete, ChangeOp.DELETE, 10L))
        .isFalse();
    assertThat(IcebergTableReader.changelogContains(changelog, afterDelete, ChangeOp.DELETE, 10L))
        .isTrue();
    assertThat(IcebergTableReader.changelogContains(changelog, afterDelete, ChangeOp.CREATE, 10L))
        .isTrue();
  }

  @Test
  void readsAChangelogWithAGenericImageSchema() throws IOException {
    changelog
        .newAppend()
        .appendFile(dataFile(changelog, List.of(changelogRecord("c", 10, null, 0))))
        .commit();
    TableSchema image =
        new TableSchema(
            "orders",
            List.of(
                new Column("order_id", ColumnType.BIGINT),
                new Column("status", ColumnType.VARCHAR),
                new Column("event_id", ColumnType.BIGINT)),
            List.of("order_id"),
            "event_id");

    List<ChangeEvent> events =
        events(
            IcebergTableReader.changelog(changelog, changelog.currentSnapshot().snapshotId(), image)
                .open());

    assertThat(events).hasSize(1);
    assertThat(events.get(0).row().values()).containsExactly(1L, "paid", 10L);
  }

  private List<Row> rows(long snapshotId) {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> iterator = IcebergTableReader.current(current, snapshotId).open()) {
      iterator.forEachRemaining(rows::add);
    }
    return rows;
  }

  private static List<ChangeEvent> events(CloseableIterator<ChangeEvent> iterator) {
    List<ChangeEvent> events = new ArrayList<>();
    try (iterator) {
      iterator.forEachRemaining(events::add);
    }
    return events;
  }

  private static Record currentRecord(long orderId, long eventId) {
    Record record = GenericRecord.create(OrdersTables.CURRENT_SCHEMA);
    record.setField("order_id", orderId);
    record.setField("business_key", "bk-" + orderId);
    record.setField("customer_id", 5L);
    record.setField("amount_cents", 100L);
    record.setField("status", "created");
    record.setField("event_id", eventId);
    record.setField("seed", 42);
    record.setField("updated_at", UPDATED);
    return record;
  }

  private static Record changelogRecord(String op, long eventId, Long beforeEventId, int row) {
    Record record = GenericRecord.create(OrdersTables.CHANGELOG_SCHEMA);
    record.setField("op", op);
    record.setField("event_id", eventId);
    record.setField("before_event_id", beforeEventId);
    record.setField("order_id", 1L);
    record.setField("business_key", "bk-1");
    record.setField("customer_id", 5L);
    record.setField("amount_cents", 100L);
    record.setField("status", "paid");
    record.setField("seed", 42);
    record.setField("updated_at", UPDATED);
    record.setField("binlog_file", "mysql-bin.000001");
    record.setField("binlog_pos", 400L);
    record.setField("row_index", row);
    record.setField("gtid", "0-1-5");
    record.setField("source_ts", OffsetDateTime.of(2026, 1, 1, 0, 0, 2, 0, ZoneOffset.UTC));
    return record;
  }

  private static EncryptedOutputFile newFile(Table table) {
    return EncryptedFiles.plainAsEncryptedOutput(
        table.io().newOutputFile(table.location() + "/data/" + UUID.randomUUID() + ".parquet"));
  }

  private static DataFile dataFile(Table table, List<Record> records) throws IOException {
    DataWriter<Record> writer =
        new GenericAppenderFactory(table.schema(), table.spec())
            .newDataWriter(newFile(table), FileFormat.PARQUET, null);
    try (writer) {
      records.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  private static DeleteFile equalityDelete(Table table, long orderId) throws IOException {
    Schema deleteSchema = table.schema().select("order_id");
    EqualityDeleteWriter<Record> writer =
        new GenericAppenderFactory(
                table.schema(),
                table.spec(),
                new int[] {table.schema().findField("order_id").fieldId()},
                deleteSchema,
                null)
            .newEqDeleteWriter(newFile(table), FileFormat.PARQUET, null);
    Record key = GenericRecord.create(deleteSchema);
    key.setField("order_id", orderId);
    try (writer) {
      writer.write(key);
    }
    return writer.toDeleteFile();
  }
}
