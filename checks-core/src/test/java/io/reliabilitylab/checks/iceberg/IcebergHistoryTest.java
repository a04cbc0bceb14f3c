package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableCommit;
import io.reliabilitylab.spi.data.TableHistory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history of a real Iceberg table written as Flink's upsert sink writes it (data files,
 * equality deletes, position deletes into the same commit's files) and then compacted: folding the
 * commits up to each snapshot gives exactly what a full read of that snapshot gives.
 */
class IcebergHistoryTest {

  private static final OffsetDateTime UPDATED =
      OffsetDateTime.of(2026, 1, 1, 0, 0, 1, 0, ZoneOffset.UTC);

  @TempDir Path temp;
  private IcebergWarehouse warehouse;
  private Table current;

  @BeforeEach
  void createTable() {
    warehouse = IcebergWarehouse.open(temp.resolve("warehouse"));
    warehouse.createOrdersTablesIfAbsent(OrdersTables.NAMESPACE);
    current = warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
  }

  @AfterEach
  void close() {
    warehouse.close();
  }

  @Test
  void foldingEachSnapshotsCommitsGivesWhatAFullReadOfItGives() throws IOException {
    writeUpsertsThenCompact();

    List<Long> snapshots = new ArrayList<>();
    IcebergTableReader.snapshots(current).forEach(s -> snapshots.add(s.snapshotId()));
    assertThat(snapshots).hasSize(5);
    for (long snapshot : snapshots) {
      RowSet rows = IcebergTableReader.current(current, snapshot);
      assertThat(fold(rows, KeyShard.ALL))
          .as("snapshot %s", snapshot)
          .containsExactlyInAnyOrderElementsOf(read(rows));
    }
    RowSet last = IcebergTableReader.current(current, snapshots.get(4));
    List<Row> shards = new ArrayList<>(fold(last, new KeyShard(2, 0)));
    shards.addAll(fold(last, new KeyShard(2, 1)));
    assertThat(shards).as("two shards").containsExactlyInAnyOrderElementsOf(read(last));
  }

  @Test
  void eachCommitNamesItsSnapshotAndShowsWhatItChanged() throws IOException {
    writeUpsertsThenCompact();
    long last = current.currentSnapshot().snapshotId();
    List<TableCommit<Row>> commits = commits(IcebergTableReader.current(current, last));

    assertThat(commits).hasSize(5);
    assertThat(commits.get(0).description()).contains("append").contains("checkpoint 1");
    // The upsert replaced order 1's row and added order 4 once, its first version deleted by
    // position in the same commit.
    assertThat(eventIds(commits.get(1).removed())).containsExactly(10L);
    assertThat(eventIds(commits.get(1).added())).containsExactlyInAnyOrder(11L, 41L);
    assertThat(eventIds(commits.get(2).removed())).containsExactly(20L);
    // The compaction rewrote the live rows in place: each one both removed and added.
    assertThat(eventIds(commits.get(3).removed())).containsExactlyInAnyOrder(30L, 11L, 41L);
    assertThat(eventIds(commits.get(3).added())).containsExactlyInAnyOrder(30L, 11L, 41L);
    assertThat(eventIds(commits.get(4).removed())).containsExactly(30L);
  }

  @Test
  void startsFromTheOldestSnapshotLeftWhenOlderOnesAreExpired() throws IOException {
    writeUpsertsThenCompact();
    Snapshot third = ancestor(2);
    current.expireSnapshots().expireOlderThan(third.timestampMillis()).retainLast(3).commit();
    current.refresh();
    long last = current.currentSnapshot().snapshotId();
    RowSet rows = IcebergTableReader.current(current, last);

    try (TableHistory<Row> history = rows.history(KeyShard.ALL).orElseThrow()) {
      assertThat(history.start()).contains("read whole").contains("expired");
    }
    assertThat(fold(rows, KeyShard.ALL)).containsExactlyInAnyOrderElementsOf(read(rows));
  }

  /**
   * Five commits: an append; an upsert (order 1 replaced by equality delete, order 4 written twice
   * with the first version deleted by position); a delete of order 2; a compaction into one file
   * keeping the older sequence number; a delete of order 3 after it.
   */
  private void writeUpsertsThenCompact() throws IOException {
    DataFile first = dataFile(List.of(record(1, 10), record(2, 20), record(3, 30)));
    current.newAppend().appendFile(first).set(checkpoint(), "1").commit();
    DataFile second = dataFile(List.of(record(1, 11), record(4, 40), record(4, 41)));
    DeleteFile firstVersionOfOrder4 = positionDelete(second, 1);
    current
        .newRowDelta()
        .addRows(second)
        .addDeletes(equalityDelete(1, 4))
        .addDeletes(firstVersionOfOrder4)
        .set(checkpoint(), "2")
        .commit();
    current.newRowDelta().addDeletes(equalityDelete(2)).set(checkpoint(), "3").commit();
    long sequence = current.currentSnapshot().sequenceNumber();
    DataFile compacted = dataFile(List.of(record(3, 30), record(1, 11), record(4, 41)));
    current
        .newRewrite()
        .validateFromSnapshot(current.currentSnapshot().snapshotId())
        .dataSequenceNumber(sequence)
        .deleteFile(first)
        .deleteFile(second)
        .deleteFile(firstVersionOfOrder4)
        .addFile(compacted)
        .commit();
    current.newRowDelta().addDeletes(equalityDelete(3)).set(checkpoint(), "4").commit();
  }

  private Snapshot ancestor(int index) {
    List<Snapshot> all = new ArrayList<>();
    current.snapshots().forEach(all::add);
    all.sort((a, b) -> Long.compare(a.sequenceNumber(), b.sequenceNumber()));
    return all.get(index);
  }

  private static String checkpoint() {
    return IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID;
  }

  private static List<Row> fold(RowSet rows, KeyShard shard) {
    List<Row> state = new ArrayList<>();
    try (TableHistory<Row> history = rows.history(shard).orElseThrow()) {
      for (Optional<TableCommit<Row>> commit = history.next();
          commit.isPresent();
          commit = history.next()) {
        commit.get().removed().forEach(state::remove);
        state.addAll(commit.get().added());
      }
    }
    return state;
  }

  private static List<TableCommit<Row>> commits(RowSet rows) {
    List<TableCommit<Row>> commits = new ArrayList<>();
    try (TableHistory<Row> history = rows.history(KeyShard.ALL).orElseThrow()) {
      history.next().ifPresent(commits::add);
      for (Optional<TableCommit<Row>> commit = history.next();
          commit.isPresent();
          commit = history.next()) {
        commits.add(commit.get());
      }
    }
    return commits;
  }

  private static List<Long> eventIds(List<Row> rows) {
    return rows.stream().map(Row::eventId).toList();
  }

  private static List<Row> read(RowSet rows) {
    List<Row> all = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      iterator.forEachRemaining(all::add);
    }
    return all;
  }

  private Record record(long orderId, long eventId) {
    Record record = GenericRecord.create(OrdersTables.CURRENT_SCHEMA);
    record.setField("order_id", orderId);
    record.setField("business_key", "bk-" + orderId);
    record.setField("customer_id", 5L);
    record.setField("amount_cents", 100L + eventId);
    record.setField("status", "s" + eventId);
    record.setField("event_id", eventId);
    record.setField("seed", 42);
    record.setField("updated_at", UPDATED);
    return record;
  }

  private EncryptedOutputFile newFile() {
    return EncryptedFiles.plainAsEncryptedOutput(
        current.io().newOutputFile(current.location() + "/data/" + UUID.randomUUID() + ".parquet"));
  }

  private DataFile dataFile(List<Record> records) throws IOException {
    DataWriter<Record> writer =
        new GenericAppenderFactory(current.schema(), current.spec())
            .newDataWriter(newFile(), FileFormat.PARQUET, null);
    try (writer) {
      records.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  private DeleteFile equalityDelete(long... orderIds) throws IOException {
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
      for (long orderId : orderIds) {
        Record key = GenericRecord.create(deleteSchema);
        key.setField("order_id", orderId);
        writer.write(key);
      }
    }
    return writer.toDeleteFile();
  }

  private DeleteFile positionDelete(DataFile file, long position) throws IOException {
    PositionDeleteWriter<Record> writer =
        new GenericAppenderFactory(current.schema(), current.spec())
            .newPosDeleteWriter(newFile(), FileFormat.PARQUET, null);
    try (writer) {
      writer.write(PositionDelete.<Record>create().set(file.location(), position, null));
    }
    return writer.toDeleteFile();
  }
}
