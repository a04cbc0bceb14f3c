package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.BucketDigest;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyRange;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parallel reader and its digests against Iceberg's generic reader, on a table shaped like a
 * CDC sink's: many data files, equality deletes of earlier commits' rows, a key written again after
 * its delete (which the older delete must not hide), and position deletes.
 */
class ParallelScanTest {

  private static final OffsetDateTime UPDATED =
      OffsetDateTime.of(2026, 1, 1, 0, 0, 1, 123_456_000, ZoneOffset.UTC);

  @TempDir static Path temp;
  private static IcebergWarehouse warehouse;
  private static Table current;

  /** One table for both tests: writing its thirteen commits is most of this class's time. */
  @BeforeAll
  static void createTable() throws IOException {
    warehouse = IcebergWarehouse.open(temp.resolve("warehouse"));
    warehouse.createOrdersTablesIfAbsent(OrdersTables.NAMESPACE);
    current = warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
    long eventId = 1;
    // Ten commits of 50 keys each: keys overlap between commits, as upserts do.
    for (int commit = 0; commit < 10; commit++) {
      List<Record> records = new ArrayList<>();
      for (long key = commit * 30L; key < commit * 30L + 50; key++) {
        records.add(record(key, eventId++, "status-" + commit + (key % 7 == 0 ? "\ttab" : "")));
      }
      DataFile data = dataFile(records);
      List<Long> replaced = new ArrayList<>();
      for (long key = commit * 30L; key < commit * 30L + 20 && commit > 0; key++) {
        replaced.add(key);
      }
      var delta = current.newRowDelta().addRows(data);
      if (!replaced.isEmpty()) {
        delta.addDeletes(equalityDeletes(replaced));
      }
      delta.commit();
    }
    // A position delete of the first two rows of one file, and a key deleted then written again.
    DataFile extra = dataFile(List.of(record(1000, eventId++, "a"), record(1001, eventId++, "b")));
    current.newAppend().appendFile(extra).commit();
    current
        .newRowDelta()
        .addDeletes(positionDelete(extra, 0))
        .addDeletes(equalityDeletes(List.of(5L)))
        .commit();
    current.newAppend().appendFile(dataFile(List.of(record(5, eventId, "back")))).commit();
  }

  @AfterAll
  static void close() {
    warehouse.close();
  }

  @Test
  void readsTheSameRowsAsIcebergsGenericReader() {
    long snapshot = current.currentSnapshot().snapshotId();
    RowSet rows = IcebergTableReader.current(current, snapshot);

    List<Row> parallel = drain(rows.open());
    List<Row> generic = genericRows(snapshot, rows.schema());

    assertThat(parallel).containsExactlyInAnyOrderElementsOf(generic);
    assertThat(parallel).extracting(row -> row.get("order_id")).contains(5L).doesNotContain(1000L);
    assertThat(parallel.stream().filter(row -> row.get("order_id").equals(5L)))
        .singleElement()
        .extracting(row -> row.get("status"))
        .isEqualTo("back");
  }

  @Test
  void digestsEqualTheDigestsOfTheRowsTheGenericReaderReads() {
    long snapshot = current.currentSnapshot().snapshotId();
    RowSet rows = IcebergTableReader.current(current, snapshot);
    List<Row> generic = genericRows(snapshot, rows.schema());

    try (KeyRangeDigests digests = rows.keyRangeDigests().orElseThrow()) {
      KeyRange bounds = digests.bounds().orElseThrow();
      assertThat(bounds.first()).isLessThanOrEqualTo(0);
      assertThat(bounds.last()).isGreaterThanOrEqualTo(1001);
      for (long width : new long[] {1, 7, 64, 5000}) {
        assertThat(digests.digests(bounds, width))
            .as("width %d", width)
            .containsExactlyElementsOf(expectedDigests(generic, bounds, width));
      }
      KeyRange part = new KeyRange(40, 99);
      assertThat(digests.digests(part, 16))
          .containsExactlyElementsOf(expectedDigests(generic, part, 16));
      assertThat(drain(digests.rows(List.of(new KeyRange(3, 6), new KeyRange(200, 201)))))
          .containsExactlyInAnyOrderElementsOf(
              generic.stream()
                  .filter(
                      row -> {
                        long key = (Long) row.get("order_id");
                        return (key >= 3 && key <= 6) || key == 200 || key == 201;
                      })
                  .toList());
      assertThat(digests.keysUnique()).isFalse();
    }
  }

  private static List<BucketDigest> expectedDigests(List<Row> rows, KeyRange range, long width) {
    Map<Long, long[]> buckets = new TreeMap<>();
    for (Row row : rows) {
      long key = (Long) row.get("order_id");
      if (range.contains(key)) {
        long[] cell = buckets.computeIfAbsent(range.bucketOf(key, width), b -> new long[2]);
        cell[0]++;
        cell[1] += CanonicalForm.rowHash(row);
      }
    }
    List<BucketDigest> digests = new ArrayList<>();
    buckets.forEach(
        (bucket, cell) ->
            digests.add(new BucketDigest(range.bucket(width, bucket), cell[0], cell[1])));
    return digests;
  }

  private static List<Row> genericRows(long snapshot, TableSchema schema) {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(current).useSnapshot(snapshot).build()) {
      records.forEach(record -> rows.add(IcebergTableReader.row(schema, record)));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return rows;
  }

  private static List<Row> drain(CloseableIterator<Row> iterator) {
    List<Row> rows = new ArrayList<>();
    try (iterator) {
      iterator.forEachRemaining(rows::add);
    }
    return rows;
  }

  private static Record record(long orderId, long eventId, String status) {
    Record record = GenericRecord.create(OrdersTables.CURRENT_SCHEMA);
    record.setField("order_id", orderId);
    record.setField("business_key", "bk-" + orderId);
    record.setField("customer_id", orderId % 13);
    record.setField("amount_cents", orderId * 100);
    record.setField("status", status);
    record.setField("event_id", eventId);
    record.setField("seed", 42);
    record.setField("updated_at", UPDATED.plusNanos(orderId * 1000));
    return record;
  }

  private static EncryptedOutputFile newFile() {
    return EncryptedFiles.plainAsEncryptedOutput(
        current.io().newOutputFile(current.location() + "/data/" + UUID.randomUUID() + ".parquet"));
  }

  private static DataFile dataFile(List<Record> records) throws IOException {
    DataWriter<Record> writer =
        new GenericAppenderFactory(current.schema(), current.spec())
            .newDataWriter(newFile(), FileFormat.PARQUET, null);
    try (writer) {
      records.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  private static DeleteFile equalityDeletes(List<Long> keys) throws IOException {
    Schema deleteSchema = current.schema().select("order_id");
    EqualityDeleteWriter<Record> writer =
        new GenericAppenderFactory(
                current.schema(),
                current.spec(),
                new int[] {current.schema().findField("order_id").fieldId()},
                deleteSchema,
                null)
            .newEqDeleteWriter(newFile(), FileFormat.PARQUET, null);
    try (writer) {
      for (long key : keys) {
        Record record = GenericRecord.create(deleteSchema);
        record.setField("order_id", key);
        writer.write(record);
      }
    }
    return writer.toDeleteFile();
  }

  private static DeleteFile positionDelete(DataFile file, long position) throws IOException {
    PositionDeleteWriter<Record> writer =
        new GenericAppenderFactory(current.schema(), current.spec())
            .newPosDeleteWriter(newFile(), FileFormat.PARQUET, null);
    try (writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      writer.write(delete.set(file.location(), position, null));
    }
    return writer.toDeleteFile();
  }
}
