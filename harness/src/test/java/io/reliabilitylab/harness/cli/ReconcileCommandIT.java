package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.catalog.rest.EmbeddedRestCatalog;
import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.objectstore.EmbeddedObjectStore;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.source.mysql.WorkloadWriter;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
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
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reliability-lab reconcile} against the embedded MariaDB and an Iceberg table written with
 * Iceberg's generic writer: passes on the same rows, fails naming exactly the tampered keys.
 */
class ReconcileCommandIT {

  private static final String SOURCE_TABLE = "reconcile_orders";
  private static final TableIdentifier ICEBERG_TABLE = TableIdentifier.of("lab", "orders_current");

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @TempDir Path temp;

  record Run(int exitCode, String out, String err) {}

  @Test
  void passesOnTheSameRowsAndNamesTheTamperedKeysAfterwards() throws Exception {
    List<Row> rows = writeSource(WorkloadConfig.of(1_500, 11));
    Path warehouseDir = temp.resolve("warehouse");
    Path out = temp.resolve("runs");
    try (IcebergWarehouse warehouse = IcebergWarehouse.open(warehouseDir)) {
      Table table =
          warehouse.createIfAbsent(
              ICEBERG_TABLE,
              OrdersTables.CURRENT_SCHEMA,
              OrdersTables.PARTITIONING,
              OrdersTables.PROPERTIES);
      List<Record> records = rows.stream().map(ReconcileCommandIT::record).toList();
      table.newAppend().appendFile(dataFile(table, records)).commit();

      Run clean = reconcile(warehouseDir, out.resolve("clean"));
      assertThat(clean.exitCode()).as(clean.toString()).isEqualTo(ExitCode.PASSED.code());
      assertThat(clean.out())
          .contains(": PASSED")
          .contains("snapshot-diff")
          .contains("no-duplicate-keys")
          .contains("event-id-audit");

      // Tamper: delete one row, and change the status of another (an upsert: delete + insert).
      Record deleted = records.get(records.size() / 3);
      Record changed = records.get(records.size() / 2).copy();
      changed.setField("status", "tampered");
      long deletedKey = (Long) deleted.getField("order_id");
      long changedKey = (Long) changed.getField("order_id");
      table.refresh();
      table
          .newRowDelta()
          .addDeletes(equalityDelete(table, List.of(deletedKey, changedKey)))
          .addRows(dataFile(table, List.of(changed)))
          .commit();

      Run tampered = reconcile(warehouseDir, out.resolve("tampered"));
      assertThat(tampered.exitCode()).as(tampered.toString()).isEqualTo(ExitCode.FAILED.code());
      assertThat(tampered.out())
          .contains(": FAILED")
          .contains("missing order_id=" + deletedKey)
          .contains("mismatched order_id=" + changedKey + ": status expected '")
          .contains(", actual 'tampered'");

      RunRecord record = onlyRecord(out.resolve("tampered"));
      CheckResult diff =
          record.checks().stream()
              .filter(check -> check.check().equals("snapshot-diff"))
              .findFirst()
              .orElseThrow();
      assertThat(diff.verdict()).isEqualTo(Verdict.FAILED);
      // MariaDB digested in SQL, Iceberg over its data files: only the differing buckets read.
      assertThat(diff.evidence().facts())
          .containsEntry(SnapshotDiffCheck.METHOD, SnapshotDiffCheck.DIGEST_AND_BISECT);
      assertThat(Long.parseLong(diff.evidence().facts().get("differing_buckets")))
          .isBetween(1L, 2L);
      assertThat(diff.evidence().count("missing")).isEqualTo(1);
      assertThat(diff.evidence().count("mismatched")).isEqualTo(1);
      assertThat(diff.evidence().count("unexpected")).isZero();
      assertThat(diff.evidence().samples())
          .extracting(EvidenceSample::subject)
          .containsExactlyInAnyOrder("order_id=" + deletedKey, "order_id=" + changedKey);
      assertThat(diff.evidence().samples())
          .filteredOn(sample -> sample.kind().equals("mismatched"))
          .singleElement()
          .extracting(EvidenceSample::differingColumns)
          .isEqualTo(List.of("status"));
      assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(record.snapshots()).hasSize(1);
      assertThat(record.effectiveConfiguration())
          .containsEntry(
              "iceberg.snapshot-id", Long.toString(record.snapshots().get(0).snapshotId()));
    }
  }

  @Test
  void aTableWithOtherColumnsIsAOneLineEnvironmentError() throws Exception {
    writeSource(WorkloadConfig.of(50, 3));
    Path warehouseDir = temp.resolve("warehouse");
    try (IcebergWarehouse warehouse = IcebergWarehouse.open(warehouseDir)) {
      Schema other =
          new Schema(
              List.of(
                  Types.NestedField.required(1, "order_id", Types.LongType.get()),
                  Types.NestedField.optional(2, "business_key", Types.StringType.get()),
                  Types.NestedField.optional(3, "customer_id", Types.LongType.get()),
                  Types.NestedField.optional(4, "amount_cents", Types.LongType.get()),
                  Types.NestedField.optional(5, "status", Types.LongType.get()),
                  Types.NestedField.optional(6, "event_id", Types.LongType.get()),
                  Types.NestedField.optional(7, "updated_at", Types.TimestampType.withZone()),
                  Types.NestedField.optional(8, "colour", Types.StringType.get())),
              Set.of(1));
      warehouse.createIfAbsent(ICEBERG_TABLE, other, PartitionSpec.unpartitioned(), Map.of());
    }

    Run run = reconcile(warehouseDir, temp.resolve("runs"));

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("reliability-lab reconcile: the columns of Iceberg table")
        .contains("status (source varchar, Iceberg long)")
        .contains("seed (only in the source)")
        .contains("colour (only in Iceberg)");
  }

  private List<Row> writeSource(WorkloadConfig config) throws Exception {
    OrdersTable.in(source, SOURCE_TABLE).reset();
    Workload workload = WorkloadGenerator.generate(config);
    Expectation expected = Oracle.expect(workload);
    WorkloadWriter.builder(source).table(SOURCE_TABLE).build().write(workload);
    return expected.currentRows();
  }

  /**
   * The same reconciliation against a table behind an Iceberg REST catalog on an object store (the
   * lab's embedded ones: a JDBC catalog behind Iceberg's REST servlet, S3Mock, the files written
   * and read through S3FileIO): passes on the same rows, fails naming the key after a commit
   * through the catalog removed it, and records the catalog's URI but no secret property's value.
   */
  @Test
  void reconcilesATableBehindARestCatalog() throws Exception {
    List<Row> rows = writeSource(WorkloadConfig.of(400, 17));
    Path out = temp.resolve("runs");
    String secret = "s3cr3t-" + UUID.randomUUID();
    try (EmbeddedObjectStore store = EmbeddedObjectStore.start(temp.resolve("store"), "lab");
        EmbeddedRestCatalog catalog =
            EmbeddedRestCatalog.start(
                temp.resolve("rest"), store.warehouseLocation(), store.fileIoProperties());
        RESTCatalog client = new RESTCatalog()) {
      Map<String, String> clientProperties = new HashMap<>(store.fileIoProperties());
      clientProperties.put(CatalogProperties.URI, catalog.uri());
      client.initialize("writer", clientProperties);
      client.createNamespace(ICEBERG_TABLE.namespace());
      Table table =
          client.createTable(
              ICEBERG_TABLE,
              OrdersTables.CURRENT_SCHEMA,
              OrdersTables.PARTITIONING,
              OrdersTables.PROPERTIES);
      List<Record> records = rows.stream().map(ReconcileCommandIT::record).toList();
      table.newAppend().appendFile(dataFile(table, records)).commit();
      assertThat(table.location()).startsWith("s3://lab/");
      List<String> rest = new ArrayList<>(List.of("--catalog-uri=" + catalog.uri()));
      store
          .fileIoProperties()
          .forEach(
              (name, value) ->
                  rest.addAll(
                      List.of(
                          "--catalog-property",
                          name + "=" + (name.equals("s3.secret-access-key") ? secret : value))));

      Run clean = reconcile(rest, out.resolve("clean"));
      assertThat(clean.exitCode()).as(clean.toString()).isEqualTo(ExitCode.PASSED.code());
      RunRecord passed = onlyRecord(out.resolve("clean"));
      assertThat(passed.effectiveConfiguration())
          .containsEntry("iceberg.catalog", "rest")
          .containsEntry("iceberg.catalog-uri", catalog.uri())
          .containsEntry("iceberg.catalog-property.client.region", "us-east-1")
          .containsKey("iceberg.catalog-property.s3.secret-access-key")
          .doesNotContainValue(secret);
      assertThat(Files.readString(onlyRecordFile(out.resolve("clean")))).doesNotContain(secret);
      assertThat(clean.out() + clean.err()).doesNotContain(secret);

      long deletedKey = (Long) records.get(records.size() / 2).getField("order_id");
      table.refresh();
      table.newRowDelta().addDeletes(equalityDelete(table, List.of(deletedKey))).commit();
      Run tampered = reconcile(rest, out.resolve("tampered"));
      assertThat(tampered.exitCode()).as(tampered.toString()).isEqualTo(ExitCode.FAILED.code());
      assertThat(tampered.out()).contains("missing order_id=" + deletedKey);
    }
  }

  @Test
  void aRestCatalogThatDoesNotAnswerIsAOneLineEnvironmentError() throws Exception {
    writeSource(WorkloadConfig.of(10, 3));
    Run run;
    try (java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
      int port = closed.getLocalPort();
      closed.close();
      run =
          reconcile(
              List.of("--catalog-uri=http://127.0.0.1:" + port), temp.resolve("runs-unreachable"));
    }
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.err().strip())
        .contains("the Iceberg REST catalog at http://127.0.0.1:")
        .contains("check --catalog-uri")
        .doesNotContain("\n\tat ");
    assertThat(run.err().strip().lines()).hasSize(1);
  }

  private Run reconcile(Path warehouse, Path out) {
    return reconcile(List.of("--warehouse=" + warehouse), out);
  }

  private Run reconcile(List<String> catalog, Path out) {
    List<String> args = new ArrayList<>();
    args.add("reconcile");
    args.add("--source-jdbc-url=" + source.jdbcUrl());
    args.add("--source-user=" + source.adminCredentials().user());
    if (!source.adminCredentials().revealPassword().isEmpty()) {
      args.add("--source-password=" + source.adminCredentials().revealPassword());
    }
    args.add("--source-table=" + SOURCE_TABLE);
    args.addAll(catalog);
    args.add("--iceberg-table=" + ICEBERG_TABLE);
    args.add("--out=" + out);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(args.toArray(String[]::new));
    return new Run(exitCode, stdout.toString(), stderr.toString());
  }

  static Path onlyRecordFile(Path out) throws IOException {
    try (Stream<Path> files = Files.list(out)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith(".json"))
          .findFirst()
          .orElseThrow();
    }
  }

  static RunRecord onlyRecord(Path out) throws IOException {
    try (Stream<Path> files = Files.list(out)) {
      List<Path> records =
          files.filter(file -> file.getFileName().toString().endsWith(".json")).toList();
      assertThat(records).hasSize(1);
      return RunRecordReader.read(records.get(0));
    }
  }

  static Record record(Row row) {
    Record record = GenericRecord.create(OrdersTables.CURRENT_SCHEMA);
    for (Types.NestedField field : OrdersTables.CURRENT_SCHEMA.columns()) {
      Object value = row.get(field.name());
      record.setField(
          field.name(),
          value instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : value);
    }
    return record;
  }

  private static EncryptedOutputFile newFile(Table table) {
    return EncryptedFiles.plainAsEncryptedOutput(
        table.io().newOutputFile(table.location() + "/data/" + UUID.randomUUID() + ".parquet"));
  }

  static DataFile dataFile(Table table, List<Record> records) throws IOException {
    DataWriter<Record> writer =
        new GenericAppenderFactory(table.schema(), table.spec())
            .newDataWriter(newFile(table), FileFormat.PARQUET, null);
    try (writer) {
      records.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  static DeleteFile equalityDelete(Table table, List<Long> orderIds) throws IOException {
    Schema deleteSchema = table.schema().select("order_id");
    EqualityDeleteWriter<Record> writer =
        new GenericAppenderFactory(
                table.schema(),
                table.spec(),
                new int[] {table.schema().findField("order_id").fieldId()},
                deleteSchema,
                null)
            .newEqDeleteWriter(newFile(table), FileFormat.PARQUET, null);
    try (writer) {
      for (long orderId : orderIds) {
        Record key = GenericRecord.create(deleteSchema);
        key.setField("order_id", orderId);
        writer.write(key);
      }
    }
    return writer.toDeleteFile();
  }
}
