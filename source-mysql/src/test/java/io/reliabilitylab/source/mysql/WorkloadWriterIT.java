package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.RowSetDigest;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkloadWriterIT {

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @BeforeEach
  void emptyTable() throws SQLException {
    source.resetDatabase();
    OrdersTable.in(source).reset();
  }

  @Test
  void aSeededWorkloadLeavesTheOraclesRows() throws Exception {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder().events(2_000).seed(42).initialRows(200).build());
    Expectation expected = Oracle.expect(workload);
    WorkloadWriter writer = WorkloadWriter.builder(source).listener(new OrderChecker()).build();

    assertThat(writer.insertInitialRows(workload)).isEqualTo(200);
    assertThat(read(SourceRowReader.orders(source))).isEqualTo(expected.initialRows());
    WriteReport report = writer.write(workload);

    assertThat(report.transactions()).isEqualTo(workload.transactions().size());
    assertThat(report.changes()).isEqualTo(workload.changeCount()).isEqualTo(2_000);
    assertThat(report.commits()).isEqualTo(workload.transactions().size());
    assertThat(report.commitTimes()).isSorted().hasSize(report.transactions());
    List<Row> actual = read(SourceRowReader.orders(source));
    assertThat(actual).isEqualTo(expected.currentRows());
    assertThat(digest(actual)).isEqualTo(expected.currentDigest());
    OrdersTable orders = OrdersTable.in(source);
    assertThat(orders.rowCount()).isEqualTo(expected.currentRows().size());
    assertThat(orders.maxEventId()).isEqualTo(expected.lastWrittenEventId());
  }

  @Test
  void timestampsAreUtcWhateverTheJvmAndServerZones() throws Exception {
    TimeZone jvmZone = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
      execute("SET GLOBAL time_zone = '-07:00'");
      Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(300, 7));
      Expectation expected = Oracle.expect(workload);

      WorkloadWriter.to(source).write(workload);

      assertThat(read(SourceRowReader.orders(source))).isEqualTo(expected.currentRows());
      Row first = expected.currentRows().get(0);
      Instant updatedAt = (Instant) first.get("updated_at");
      try (Connection connection = source.connect();
          Statement statement = connection.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "SELECT UNIX_TIMESTAMP(updated_at) * 1000 FROM orders WHERE order_id = "
                      + first.get("order_id"))) {
        row.next();
        // The instant the server holds, independent of any zone, is the workload's.
        assertThat(row.getBigDecimal(1).longValue()).isEqualTo(updatedAt.toEpochMilli());
      }
    } finally {
      TimeZone.setDefault(jvmZone);
      execute("SET GLOBAL time_zone = '+00:00'");
    }
  }

  @Test
  void batchedCommitsLeaveTheSameRows() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(1_000, 3));

    WriteReport report =
        WorkloadWriter.builder(source).transactionsPerCommit(50).build().write(workload);

    assertThat(report.commits())
        .isEqualTo((workload.transactions().size() + 49) / 50)
        .isLessThan(report.transactions());
    assertThat(report.commitTime(0)).isEqualTo(report.commitTime(49));
    assertThat(read(SourceRowReader.orders(source)))
        .isEqualTo(Oracle.expect(workload).currentRows());
  }

  @Test
  void changesOfDistinctKeysInOneCommitShareMultiRowStatements() throws Exception {
    Instant time = Instant.parse("2026-01-01T00:00:00.123Z");
    List<SourceChange> inserts = new ArrayList<>();
    List<SourceChange> updates = new ArrayList<>();
    List<SourceChange> deletes = new ArrayList<>();
    for (long key = 1; key <= 100; key++) {
      Row created = TableSchema.ORDERS.row(key, "ord-" + key, 7L, 100L, "created", key, 1, time);
      Row paid = created.with("status", "paid").with("event_id", 1_000 + key);
      inserts.add(SourceChange.insert(created));
      updates.add(SourceChange.update(created, paid));
      deletes.add(SourceChange.delete(paid));
    }
    WorkloadWriter writer = WorkloadWriter.to(source);
    writer.write(List.of(new SourceTransaction(0, time, inserts)));
    String[] position = binlogPosition();

    writer.write(List.of(new SourceTransaction(1, time, updates)));
    writer.write(List.of(new SourceTransaction(2, time, deletes)));

    // 100 updates and 100 deletes, a few row events each (an event holds up to 8 KiB of images)
    List<String> rowEvents = rowEventsSince(position);
    assertThat(rowEvents).hasSizeLessThan(40).contains("Update_rows_v1", "Delete_rows_v1");
    assertThat(OrdersTable.in(source).rowCount()).isZero();
  }

  @Test
  void aKeyChangedTwiceInOneCommitKeepsItsOrder() throws Exception {
    Instant time = Instant.parse("2026-01-01T00:00:00.123Z");
    Row one = TableSchema.ORDERS.row(1L, "ord-1", 7L, 100L, "created", 1L, 1, time);
    Row two = TableSchema.ORDERS.row(2L, "ord-2", 7L, 200L, "created", 2L, 1, time);
    Row onePaid = one.with("status", "paid").with("event_id", 3L);
    Row moved = one.with("order_id", 3L).with("status", "shipped").with("event_id", 4L);
    Row reinserted = one.with("amount_cents", 150L).with("event_id", 5L);
    List<SourceChange> changes =
        List.of(
            SourceChange.insert(one),
            SourceChange.insert(two),
            SourceChange.update(one, onePaid),
            SourceChange.update(onePaid, moved),
            SourceChange.insert(reinserted),
            SourceChange.delete(two));

    WorkloadWriter.to(source).write(List.of(new SourceTransaction(0, time, changes)));

    assertThat(read(SourceRowReader.orders(source))).containsExactly(reinserted, moved);
  }

  @Test
  void theRateLimitSpacesTheWrites() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(300, 5));

    WriteReport report =
        WorkloadWriter.builder(source).eventsPerSecond(1_000).build().write(workload);

    // The last transaction may start once 300 - (its size) events have had their time.
    assertThat(report.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(250));
    assertThat(report.changesPerSecond()).isLessThan(1_250);
  }

  @Test
  void aPrimaryKeyUpdateIsOneUpdateEventInTheBinlog() throws Exception {
    Instant time = Instant.parse("2026-01-01T00:00:00.123Z");
    Row before = TableSchema.ORDERS.row(1L, "ord-1-1", 7L, 100L, "created", 1L, 42, time);
    Row after =
        TableSchema.ORDERS.row(2L, "ord-1-1", 7L, 100L, "created", 2L, 42, time.plusMillis(1));
    WorkloadWriter writer = WorkloadWriter.to(source);
    writer.write(List.of(new SourceTransaction(0, time, List.of(SourceChange.insert(before)))));
    String[] position = binlogPosition();

    writer.write(
        List.of(
            new SourceTransaction(
                1, time.plusMillis(1), List.of(SourceChange.update(before, after)))));

    assertThat(rowEventsSince(position)).containsExactly("Update_rows_v1");
    assertThat(read(SourceRowReader.orders(source))).containsExactly(after);
  }

  @Test
  void aTableThatNoLongerFollowsTheWorkloadFailsTheWrite() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(500, 11));
    int firstUpdate = -1;
    for (int i = 0; i < workload.transactions().size() && firstUpdate < 0; i++) {
      SourceChange change = workload.transactions().get(i).changes().get(0);
      if (change instanceof SourceChange.Update || change instanceof SourceChange.Delete) {
        firstUpdate = i;
      }
    }
    assertThat(firstUpdate).isPositive();
    WorkloadWriter writer = WorkloadWriter.to(source);
    writer.write(workload.transactions().subList(0, firstUpdate));
    execute("DELETE FROM orders");
    long rowsBefore = OrdersTable.in(source).rowCount();
    int failing = firstUpdate;

    assertThatThrownBy(
            () ->
                writer.write(
                    workload.transactions().subList(failing, workload.transactions().size())))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(
            "Writing transaction " + workload.transactions().get(failing).ordinal())
        .hasMessageContaining("No row matched")
        .hasMessageContaining("reset it");
    // The failed transaction was rolled back.
    assertThat(OrdersTable.in(source).rowCount()).isEqualTo(rowsBefore);
  }

  @Test
  void aDivergenceDeepInABatchedCommitNamesTheRowThatDidNotMatch() throws Exception {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder()
                .events(3_000)
                .seed(5)
                .initialRows(500)
                .maxChangesPerTransaction(1)
                .build());
    List<SourceTransaction> transactions = workload.transactions();
    int split = transactions.size() / 2;
    // A same-key update well inside the second commit, after hot keys' many layers, of a key
    // that commit has not changed before.
    Set<Long> touched = new HashSet<>();
    SourceChange.Update victim = null;
    for (int i = split; victim == null; i++) {
      SourceChange change = transactions.get(i).changes().get(0);
      if (i >= split + 700
          && change instanceof SourceChange.Update update
          && update.before().get("order_id").equals(update.after().get("order_id"))
          && !touched.contains(update.before().get("order_id"))) {
        victim = update;
      }
      touched.addAll(MultiRowStatements.keysOf(change));
    }
    WorkloadWriter writer = WorkloadWriter.builder(source).transactionsPerCommit(split).build();
    writer.insertInitialRows(workload);
    writer.write(transactions.subList(0, split));
    long key = (Long) victim.before().get("order_id");
    long eventId = victim.before().eventId();
    execute("UPDATE orders SET event_id = -1 WHERE order_id = " + key);
    String before = digest(read(SourceRowReader.orders(source)));

    assertThatThrownBy(() -> writer.write(transactions.subList(split, transactions.size())))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("No row matched 1 of")
        .hasMessageContaining("e.g. order_id " + key + " at event_id " + eventId)
        .hasMessageContaining("reset it");
    assertThat(digest(read(SourceRowReader.orders(source)))).isEqualTo(before);
  }

  @Test
  void stringsWithQuotesBackslashesAndAnyCharacterArriveUnchanged() throws Exception {
    Instant time = Instant.parse("2026-01-01T00:00:00.123Z");
    List<String> keys =
        List.of("o'brien", "back\\slash\\", "quote\"; DROP TABLE orders; --", "ünï 😀", "");
    List<SourceChange> inserts = new ArrayList<>();
    List<SourceChange> updates = new ArrayList<>();
    List<Row> expected = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      long key = i + 1;
      Row created = TableSchema.ORDERS.row(key, keys.get(i), 7L, 100L, "created", key, 1, time);
      Row paid = created.with("status", "pa'id\\").with("event_id", 100 + key);
      inserts.add(SourceChange.insert(created));
      updates.add(SourceChange.update(created, paid));
      expected.add(paid);
    }
    List<SourceChange> changes = new ArrayList<>(inserts);
    changes.addAll(updates);

    WorkloadWriter.to(source).write(List.of(new SourceTransaction(0, time, changes)));

    assertThat(read(SourceRowReader.orders(source))).containsExactlyElementsOf(expected);
  }

  @Test
  void anInterruptStopsBetweenTransactions() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(200, 13));
    AtomicLong committed = new AtomicLong();
    WorkloadWriter writer =
        WorkloadWriter.builder(source)
            .listener(
                (transaction, at) -> {
                  if (committed.incrementAndGet() == 10) {
                    Thread.currentThread().interrupt();
                  }
                })
            .build();

    assertThatThrownBy(() -> writer.write(workload)).isInstanceOf(InterruptedException.class);

    assertThat(committed.get()).isEqualTo(10);
    assertThat(read(SourceRowReader.orders(source)))
        .isEqualTo(Oracle.expect(workload.prefix(10)).currentRows());
  }

  @Test
  void theReaderStreamsInKeyOrderAtOneSnapshot() throws Exception {
    Workload workload =
        WorkloadGenerator.generate(WorkloadConfig.builder().events(0).initialRows(3_000).build());
    WorkloadWriter.to(source).insertInitialRows(workload);
    RowSet rows = SourceRowReader.orders(source);

    List<Row> seen = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      seen.add(iterator.next());
      // A write after the read started is not seen by it.
      execute("DELETE FROM orders WHERE order_id > 10");
      iterator.forEachRemaining(seen::add);
    }

    assertThat(seen).isEqualTo(workload.initialRows());
    assertThat(rows.description()).contains("lab.orders").contains(source.jdbcUrl());
    assertThat(read(rows)).hasSize(10);
    assertThat(rows.schema()).isEqualTo(TableSchema.ORDERS);
  }

  private String[] binlogPosition() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
      status.next();
      return new String[] {status.getString(1), status.getString(2)};
    }
  }

  private static List<Row> read(RowSet rows) {
    List<Row> list = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      iterator.forEachRemaining(list::add);
    }
    return list;
  }

  private List<String> rowEventsSince(String[] position) throws SQLException {
    List<String> rowEvents = new ArrayList<>();
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet events =
            statement.executeQuery(
                "SHOW BINLOG EVENTS IN '" + position[0] + "' FROM " + position[1])) {
      while (events.next()) {
        String type = events.getString("Event_type");
        if (type.endsWith("_rows_v1")) {
          rowEvents.add(type);
        }
      }
    }
    return rowEvents;
  }

  private static String digest(List<Row> rows) {
    RowSetDigest digest = new RowSetDigest();
    rows.forEach(digest::add);
    return digest.hex();
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Checks that the listener hears of every transaction once, in order. */
  private static final class OrderChecker implements WorkloadWriter.Listener {
    private long next;

    @Override
    public void committed(SourceTransaction transaction, Instant committedAt) {
      assertThat(transaction.ordinal()).isEqualTo(next++);
    }
  }
}
