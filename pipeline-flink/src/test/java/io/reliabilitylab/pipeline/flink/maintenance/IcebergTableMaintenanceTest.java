package io.reliabilitylab.pipeline.flink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.spi.pipeline.MaintenanceReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of a local v2 upsert table written with Iceberg's generic writers: data files and
 * equality deletes on {@code order_id}, some committed while the rewrite's Flink job runs (between
 * its plan and its commit), as the pipeline's sink does.
 */
class IcebergTableMaintenanceTest {

  private static final TableIdentifier ID =
      TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT);
  private static final Schema KEY = OrdersTables.CURRENT_SCHEMA.select("order_id");

  // One cluster for the whole class: a local environment would start a MiniCluster per rewrite.
  private static MiniClusterRunner cluster;

  @TempDir Path temp;

  private IcebergWarehouse warehouse;
  private Table table;
  private GenericAppenderFactory writers;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = MiniClusterRunner.start(MiniClusterSettings.defaults());
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @BeforeEach
  void createTable() {
    warehouse = IcebergWarehouse.open(temp.resolve("warehouse"));
    table =
        warehouse.createIfAbsent(
            ID, OrdersTables.CURRENT_SCHEMA, OrdersTables.PARTITIONING, OrdersTables.PROPERTIES);
    writers = new GenericAppenderFactory(table.schema(), table.spec(), new int[] {1}, KEY, null);
  }

  @AfterEach
  void closeWarehouse() {
    warehouse.close();
  }

  /** Three data files, an upsert (key 3) and a delete (key 6), committed as a Flink job would. */
  private void writeHistory() throws IOException {
    table
        .newAppend()
        .appendFile(
            data(row(1, "created"), row(2, "created"), row(3, "created"), row(4, "created")))
        .commit();
    table
        .newAppend()
        .appendFile(
            data(row(5, "created"), row(6, "created"), row(7, "created"), row(8, "created")))
        .commit();
    table.newRowDelta().addDeletes(deleteKeys(3)).addRows(data(row(3, "paid"))).commit();
    table
        .newRowDelta()
        .addDeletes(deleteKeys(6))
        .set("flink.max-committed-checkpoint-id", "7")
        .set("flink.job-id", "job-a")
        .commit();
  }

  @Test
  void compactsIntoOneFileKeepingTheRowsAndTheStartingSequenceNumber() throws Exception {
    writeHistory();
    long startingSequence = fresh().currentSnapshot().sequenceNumber();
    List<String> rowsBefore = rows();

    MaintenanceReport report = maintenance(name -> fresh()).build().compact(OrdersTables.CURRENT);

    assertThat(report.conflicts()).isEmpty();
    assertThat(report.committed()).isTrue();
    assertThat(report.before())
        .containsEntry("data_files", 3L)
        .containsEntry("delete_files", 2L)
        .containsEntry("applicable_delete_files", 2L);
    assertThat(report.after())
        .containsEntry("data_files", 1L)
        .containsEntry("applicable_delete_files", 0L)
        .containsEntry("records", 7L);
    assertThat(report.details())
        .containsEntry("use_starting_sequence_number", "true")
        .containsEntry("rewritten_data_files", "3")
        .containsEntry("added_data_files", "1")
        .containsEntry("starting_sequence_number", Long.toString(startingSequence))
        .containsEntry("added_files_data_sequence_numbers", "[" + startingSequence + "]")
        .containsEntry("data_sequence_number_kept", "true")
        .containsEntry("commits_during_rewrite", "0")
        .containsEntry("snapshots_before", "4")
        .containsEntry("snapshots_after", "5");
    assertThat(report.details().get("flink_committer_lookup"))
        .startsWith("checkpoint 7 of job job-a in snapshot " + report.snapshotBefore())
        .contains("past 1 newer snapshot(s)");
    assertThat(Long.parseLong(report.details().get("committed_sequence_number")))
        .isGreaterThan(startingSequence);
    assertThat(rows())
        .isEqualTo(rowsBefore)
        .containsExactly(
            "1 created", "2 created", "3 paid", "4 created", "5 created", "7 created", "8 created");
    assertThat(report.startedAt()).isBeforeOrEqualTo(report.finishedAt());
  }

  @Test
  void upsertsCommittedDuringTheRewriteStillApply() throws Exception {
    writeHistory();
    long startingSequence = fresh().currentSnapshot().sequenceNumber();

    // As the Flink sink commits a checkpoint: equality deletes and the new rows in one snapshot.
    MaintenanceReport report =
        maintenance(name -> fresh())
            .environment(committingDuringTheJob(() -> upsert(row(2, "paid"), row(9, "created"))))
            .build()
            .compact(OrdersTables.CURRENT);

    assertThat(report.conflicts()).isEmpty();
    assertThat(report.committed()).isTrue();
    assertThat(report.details())
        .containsEntry("starting_sequence_number", Long.toString(startingSequence))
        .containsEntry("data_sequence_number_kept", "true")
        .containsEntry("commits_during_rewrite", "1")
        .containsEntry("dropped_concurrent_delete_files", "0");
    assertThat(rows())
        .containsExactly(
            "1 created",
            "2 paid",
            "3 paid",
            "4 created",
            "5 created",
            "7 created",
            "8 created",
            "9 created");
    // The rewritten file and the upsert's; only the upsert's equality delete still applies.
    assertThat(report.after())
        .containsEntry("data_files", 2L)
        .containsEntry("applicable_equality_delete_files", 1L);
  }

  @Test
  void aRewriteThatWouldDropAConcurrentDeleteIsRefusedAndReported() throws Exception {
    writeHistory();
    long startingSnapshot = fresh().currentSnapshot().snapshotId();

    // A checkpoint holding only a delete, then one holding an insert: Iceberg 1.10 would drop the
    // delete with the rewrite's commit (apache/iceberg PR #10962, open) and key 2 would come back.
    MaintenanceReport report =
        maintenance(name -> fresh())
            .attempts(1)
            .environment(committingDuringTheJob(this::deleteKey2ThenInsertKey9))
            .build()
            .compact(OrdersTables.CURRENT);

    assertThat(report.committed()).isFalse();
    assertThat(report.conflicts())
        .singleElement()
        .asString()
        .startsWith("attempt 1 from snapshot " + startingSnapshot)
        .contains("ValidationException: Refusing to commit the rewrite")
        .contains("apache/iceberg PR #10962, open")
        .doesNotContain("\n");
    assertThat(rows())
        .containsExactly(
            "1 created", "3 paid", "4 created", "5 created", "7 created", "8 created", "9 created");
  }

  @Test
  void aRefusedAttemptIsRecordedAndTheNextPlanCommits() throws Exception {
    writeHistory();

    MaintenanceReport report =
        maintenance(name -> fresh())
            .attempts(2)
            .environment(committingDuringTheJob(this::deleteKey2ThenInsertKey9))
            .build()
            .compact(OrdersTables.CURRENT);

    assertThat(report.conflicts()).singleElement().asString().startsWith("attempt 1 ");
    assertThat(report.committed()).isTrue();
    // The second attempt planned on the table as it was then, and committed right on top of it.
    assertThat(fresh().snapshot(report.snapshotAfter()).parentId())
        .isEqualTo(report.snapshotBefore());
    assertThat(report.details())
        .containsEntry("attempts", "2")
        .containsEntry("data_sequence_number_kept", "true")
        .containsEntry("dropped_concurrent_delete_files", "0");
    assertThat(report.after()).containsEntry("data_files", 1L);
    assertThat(rows())
        .containsExactly(
            "1 created", "3 paid", "4 created", "5 created", "7 created", "8 created", "9 created");
  }

  @Test
  void withoutTheStartingSequenceNumberAConcurrentDeleteIsAConflictNotAnException()
      throws Exception {
    writeHistory();
    long startingSnapshot = fresh().currentSnapshot().snapshotId();

    MaintenanceReport report =
        maintenance(name -> fresh())
            .useStartingSequenceNumber(false)
            .attempts(1)
            .environment(committingDuringTheJob(() -> upsert(row(2, "paid"))))
            .build()
            .compact(OrdersTables.CURRENT);

    assertThat(report.committed()).isFalse();
    assertThat(report.conflicts())
        .singleElement()
        .asString()
        .startsWith("attempt 1 from snapshot " + startingSnapshot)
        .contains("ValidationException: Cannot commit, found new delete for replaced data file")
        .doesNotContain("\n");
    assertThat(report.details().get("outcome")).startsWith("not committed");
    assertThat(rows())
        .containsExactly(
            "1 created", "2 paid", "3 paid", "4 created", "5 created", "7 created", "8 created");
  }

  @Test
  void aTableWithoutSnapshotsOrWithOneFileIsLeftAlone() throws Exception {
    IcebergTableMaintenance maintenance = maintenance(name -> fresh()).build();

    MaintenanceReport empty = maintenance.compact(OrdersTables.CURRENT);
    assertThat(empty.committed()).isFalse();
    assertThat(empty.snapshotBefore()).isNull();
    assertThat(empty.details().get("outcome")).contains("no snapshot");

    table.newAppend().appendFile(data(row(1, "created"))).commit();
    MaintenanceReport single = maintenance.compact(OrdersTables.CURRENT);
    assertThat(single.committed()).isFalse();
    assertThat(single.conflicts()).isEmpty();
    assertThat(single.details().get("outcome")).startsWith("nothing to rewrite");
    assertThat(single.before()).isEqualTo(single.after());
  }

  @Test
  void badInputIsRefusedWithTheReason() {
    assertThatThrownBy(() -> IcebergTableMaintenance.builder(warehouse, "lab").parallelism(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parallelism must be at least 1, got 0");
    assertThatThrownBy(() -> IcebergTableMaintenance.builder(warehouse, "lab").attempts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1 attempt");
    assertThatThrownBy(
            () -> IcebergTableMaintenance.builder(warehouse, "lab").build().compact("no_such"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'no_such'")
        .hasMessageContaining("orders_current");
  }

  // Helpers

  private IcebergTableMaintenance.Builder maintenance(Function<String, Table> tables) {
    return IcebergTableMaintenance.builder(tables).parallelism(1).environment(onTheTestCluster());
  }

  /** The test cluster's environment. */
  private static Supplier<StreamExecutionEnvironment> onTheTestCluster() {
    return committingDuringTheJob(() -> {});
  }

  /**
   * The test cluster's environment, which runs {@code commits} once, when the first rewrite job has
   * been submitted: after the rewrite planned, before it collects the job's files and commits.
   */
  private static Supplier<StreamExecutionEnvironment> committingDuringTheJob(IoAction commits) {
    AtomicReference<IoAction> once = new AtomicReference<>(commits);
    return () -> {
      Configuration configuration = new Configuration();
      configuration.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
      URI rest = cluster.restAddress();
      StreamExecutionEnvironment environment =
          StreamExecutionEnvironment.createRemoteEnvironment(
              rest.getHost(), rest.getPort(), configuration);
      environment.registerJobListener(
          new JobListener() {
            @Override
            public void onJobSubmitted(@Nullable JobClient client, @Nullable Throwable failure) {
              IoAction pending = once.getAndSet(null);
              if (pending != null) {
                try {
                  pending.run();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              }
            }

            @Override
            public void onJobExecuted(
                @Nullable JobExecutionResult result, @Nullable Throwable failure) {}
          });
      return environment;
    };
  }

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }

  private void upsert(Record... rows) throws IOException {
    long[] keys = new long[rows.length];
    for (int i = 0; i < rows.length; i++) {
      keys[i] = (Long) rows[i].getField("order_id");
    }
    fresh().newRowDelta().addDeletes(deleteKeys(keys)).addRows(data(rows)).commit();
  }

  private void deleteKey2ThenInsertKey9() throws IOException {
    fresh().newRowDelta().addDeletes(deleteKeys(2)).commit();
    fresh().newAppend().appendFile(data(row(9, "created"))).commit();
  }

  private Table fresh() {
    return warehouse.load(ID);
  }

  private List<String> rows() throws IOException {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(fresh()).build()) {
      for (Record record : records) {
        rows.add(record.getField("order_id") + " " + record.getField("status"));
      }
    }
    rows.sort(null);
    return rows;
  }

  private static Record row(long orderId, String status) {
    GenericRecord record = GenericRecord.create(OrdersTables.CURRENT_SCHEMA);
    record.setField("order_id", orderId);
    record.setField("business_key", "bk-" + orderId);
    record.setField("customer_id", 100L + orderId);
    record.setField("amount_cents", 1_000L * orderId);
    record.setField("status", status);
    record.setField("event_id", orderId * 10 + status.length());
    record.setField("seed", 1);
    record.setField("updated_at", OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
    return record;
  }

  private DataFile data(Record... rows) throws IOException {
    DataWriter<Record> writer = writers.newDataWriter(output(), FileFormat.PARQUET, null);
    try (writer) {
      for (Record row : rows) {
        writer.write(row);
      }
    }
    return writer.toDataFile();
  }

  private DeleteFile deleteKeys(long... orderIds) throws IOException {
    EqualityDeleteWriter<Record> writer =
        writers.newEqDeleteWriter(output(), FileFormat.PARQUET, null);
    try (writer) {
      for (long orderId : orderIds) {
        GenericRecord key = GenericRecord.create(KEY);
        key.setField("order_id", orderId);
        writer.write(key);
      }
    }
    return writer.toDeleteFile();
  }

  private EncryptedOutputFile output() {
    String location = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
    return EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location));
  }
}
