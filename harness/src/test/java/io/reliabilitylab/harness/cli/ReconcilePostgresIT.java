package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.PostgresBinaries;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Oracle;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reliability-lab reconcile} against a PostgreSQL source (the embedded server, named by its
 * JDBC URL as a team's own would be): passes on the same rows, fails naming the tampered keys.
 */
class ReconcilePostgresIT {

  private static final String SOURCE_TABLE = "reconcile_orders";
  private static final TableIdentifier ICEBERG_TABLE = TableIdentifier.of("lab", "orders_current");

  private static EmbeddedPostgres source;

  @TempDir Path temp;

  @BeforeAll
  static void startPostgres() {
    if (System.getenv("CI") == null) {
      try {
        PostgresBinaries.find();
      } catch (IllegalStateException e) {
        Assumptions.abort(e.getMessage());
      }
    }
    source = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void passesOnTheSameRowsAndNamesTheTamperedKeysAfterwards() throws Exception {
    source.orders(SOURCE_TABLE).reset();
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(800, 5));
    source.writer(WriterSettings.of(SOURCE_TABLE)).write(workload);
    List<Row> rows = Oracle.expect(workload).currentRows();
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
      table.newAppend().appendFile(ReconcileCommandIT.dataFile(table, records)).commit();

      String[] clean = reconcile(warehouseDir, out.resolve("clean"));
      assertThat(clean[0]).as(String.join("\n", clean)).isEqualTo("0");
      assertThat(clean[1])
          .contains("postgres")
          .contains(": PASSED")
          .contains("snapshot-diff")
          .contains("event-id-audit");

      Record deleted = records.get(records.size() / 3);
      long deletedKey = (Long) deleted.getField("order_id");
      table.refresh();
      table
          .newRowDelta()
          .addDeletes(ReconcileCommandIT.equalityDelete(table, List.of(deletedKey)))
          .commit();

      String[] tampered = reconcile(warehouseDir, out.resolve("tampered"));
      assertThat(tampered[0])
          .as(String.join("\n", tampered))
          .isEqualTo(Integer.toString(ExitCode.FAILED.code()));
      assertThat(tampered[1]).contains(": FAILED").contains("missing order_id=" + deletedKey);
      RunRecord record = ReconcileCommandIT.onlyRecord(out.resolve("tampered"));
      assertThat(record.effectiveConfiguration())
          .containsEntry("source.kind", "external-postgres")
          .containsEntry("source.jdbc-url", source.jdbcUrl());
      CheckResult diff =
          record.checks().stream()
              .filter(check -> check.check().equals("snapshot-diff"))
              .findFirst()
              .orElseThrow();
      assertThat(diff.verdict()).isEqualTo(Verdict.FAILED);
      assertThat(diff.evidence().count("missing")).isEqualTo(1);
      assertThat(diff.evidence().count("mismatched")).isZero();
      assertThat(String.join("\n", tampered))
          .doesNotContain(source.adminCredentials().revealPassword());
    }
  }

  /** Exit code, standard output and standard error of one {@code reconcile}. */
  private String[] reconcile(Path warehouse, Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "reconcile",
                "--source-jdbc-url=" + source.jdbcUrl(),
                "--source-user=" + source.adminCredentials().user(),
                "--source-password=" + source.adminCredentials().revealPassword(),
                "--source-table=" + SOURCE_TABLE,
                "--warehouse=" + warehouse,
                "--iceberg-table=" + ICEBERG_TABLE,
                "--out=" + out);
    return new String[] {Integer.toString(exitCode), stdout.toString(), stderr.toString()};
  }
}
