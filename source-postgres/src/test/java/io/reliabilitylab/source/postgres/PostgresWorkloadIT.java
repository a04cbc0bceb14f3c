package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The seeded workload on PostgreSQL: the writer leaves exactly the oracle's rows (key changes,
 * deletes and re-inserts included), whether each transaction commits alone or several share a
 * commit, in any JVM zone; the consistent reader reads them back; a table that no longer follows
 * the workload fails the write naming the change.
 */
class PostgresWorkloadIT {

  private static EmbeddedPostgres source;

  @BeforeAll
  static void start() {
    source = EmbeddedPostgresIT.startOrSkip();
  }

  @AfterAll
  static void stop() {
    if (source != null) {
      source.close();
    }
  }

  @BeforeEach
  void resetTable() throws SQLException {
    PostgresOrdersTable.in(source).reset();
  }

  private static List<Row> read(RowSet rows) {
    List<Row> all = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      iterator.forEachRemaining(all::add);
    }
    return all;
  }

  @Test
  void aSeededWorkloadLeavesTheOraclesRows() throws Exception {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder().events(2_000).seed(42).initialRows(200).build());
    Expectation expected = Oracle.expect(workload);
    List<Long> committed = new ArrayList<>();
    PostgresWorkloadWriter writer =
        PostgresWorkloadWriter.builder(source)
            .listener((transaction, at) -> committed.add(transaction.ordinal()))
            .build();

    assertThat(writer.insertInitialRows(workload)).isEqualTo(200);
    assertThat(read(PostgresRowReader.orders(source))).isEqualTo(expected.initialRows());
    WriteReport report = writer.write(workload);

    assertThat(report.changes()).isEqualTo(workload.changeCount()).isEqualTo(2_000);
    assertThat(report.commits()).isEqualTo(workload.transactions().size());
    assertThat(committed).isSorted().hasSize(workload.transactions().size());
    assertThat(read(PostgresRowReader.orders(source))).isEqualTo(expected.currentRows());
    PostgresOrdersTable orders = PostgresOrdersTable.in(source);
    assertThat(orders.rowCount()).isEqualTo(expected.currentRows().size());
    assertThat(orders.maxEventId()).isEqualTo(expected.lastWrittenEventId());
  }

  @Test
  void batchedCommitsInAnotherJvmZoneLeaveTheSameRows() throws Exception {
    TimeZone zone = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
      Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(1_000, 3));

      WriteReport report =
          PostgresWorkloadWriter.builder(source).transactionsPerCommit(50).build().write(workload);

      assertThat(report.commits()).isEqualTo((workload.transactions().size() + 49) / 50);
      assertThat(read(PostgresRowReader.orders(source)))
          .isEqualTo(Oracle.expect(workload).currentRows());
    } finally {
      TimeZone.setDefault(zone);
    }
  }

  @Test
  void aTableThatNoLongerFollowsTheWorkloadFailsTheWriteNamingTheChange() throws Exception {
    Instant time = Instant.parse("2026-01-01T00:00:00.123Z");
    Row created = TableSchema.ORDERS.row(7L, "ord-7", 1L, 100L, "created", 1L, 1, time);
    Row paid = created.with("status", "paid").with("event_id", 2L);
    PostgresWorkloadWriter writer = PostgresWorkloadWriter.to(source);
    writer.write(List.of(new SourceTransaction(0, time, List.of(SourceChange.insert(created)))));
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("UPDATE orders SET event_id = 99 WHERE order_id = 7");
    }

    assertThatThrownBy(
            () ->
                writer.write(
                    List.of(
                        new SourceTransaction(
                            1, time, List.of(SourceChange.update(created, paid))))))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("order_id 7 at event_id 1")
        .hasMessageContaining("reset it");
    assertThat(PostgresOrdersTable.in(source).maxEventId()).hasValue(99);
  }
}
