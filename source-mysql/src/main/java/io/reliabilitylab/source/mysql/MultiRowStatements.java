package io.reliabilitylab.source.mysql;

import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The changes of one commit as multi-row statements, so that the server parses one statement per
 * few hundred changes instead of one per change: consecutive changes of distinct keys gather into a
 * segment — one multi-row {@code INSERT}, one {@code UPDATE … CASE}, one {@code DELETE … IN} — sent
 * when a key repeats (each key's changes reach the server in workload order; distinct keys are
 * independent), when a primary-key update comes (a single {@code UPDATE} of its own, one update
 * event in the binlog), at {@link #ROWS_PER_STATEMENT}, and at {@link #flush()}.
 *
 * <p>Updates and deletes match their before images' keys and event ids, and a statement must match
 * all its rows: event ids are unique, so a row matches only the before image written for it, and a
 * short count means the table no longer follows the workload.
 */
final class MultiRowStatements implements AutoCloseable {

  /** Rows per statement: large enough to amortise the parse, small for the {@code CASE} scan. */
  static final int ROWS_PER_STATEMENT = 256;

  private static final List<Column> COLUMNS = TableSchema.ORDERS.columns();
  private static final String KEY = "order_id";
  private static final String EVENT_ID = "event_id";

  private final Connection connection;
  private final String table;
  private final PreparedStatement keyUpdate;
  private final List<Row> inserts = new ArrayList<>();
  private final List<SourceChange.Update> updates = new ArrayList<>();
  private final List<SourceChange.Delete> deletes = new ArrayList<>();
  private final Set<Long> keys = new HashSet<>();
  private final Map<Integer, String> insertSql = new HashMap<>();
  private long statements;

  MultiRowStatements(Connection connection, String table) throws SQLException {
    this.connection = connection;
    this.table = SourceJdbc.quoteIdentifier(table);
    this.keyUpdate = connection.prepareStatement(keyUpdateSql());
  }

  /** Adds a change, sending what is pending first when it touches a pending key. */
  void add(SourceChange change) throws SQLException {
    if (change instanceof SourceChange.Insert inserted) {
      touch(key(inserted.after()));
      inserts.add(inserted.after());
    } else if (change instanceof SourceChange.Update updated) {
      long before = key(updated.before());
      if (before != key(updated.after())) {
        flush();
        updateKey(updated);
        return;
      }
      touch(before);
      updates.add(updated);
    } else if (change instanceof SourceChange.Delete deleted) {
      touch(key(deleted.before()));
      deletes.add(deleted);
    } else {
      throw new IllegalArgumentException("Unknown change " + change);
    }
    if (inserts.size() + updates.size() + deletes.size() >= ROWS_PER_STATEMENT) {
      flush();
    }
  }

  /** Sends every pending change. */
  void flush() throws SQLException {
    if (!inserts.isEmpty()) {
      insertAll();
    }
    if (!updates.isEmpty()) {
      updateAll();
    }
    if (!deletes.isEmpty()) {
      deleteAll();
    }
    keys.clear();
  }

  /** Statements sent so far. */
  long statements() {
    return statements;
  }

  private void touch(long key) throws SQLException {
    if (!keys.add(key)) {
      flush();
      keys.add(key);
    }
  }

  private void insertAll() throws SQLException {
    String sql =
        insertSql.computeIfAbsent(
            inserts.size(),
            rows ->
                "INSERT INTO "
                    + table
                    + " ("
                    + SourceRows.columnList(TableSchema.ORDERS)
                    + ") VALUES "
                    + String.join(", ", Collections.nCopies(rows, tuple(COLUMNS.size()))));
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      int parameter = 1;
      for (Row row : inserts) {
        SourceRows.bind(insert, parameter, row);
        parameter += COLUMNS.size();
      }
      insert.executeUpdate();
      statements++;
    }
    inserts.clear();
  }

  /**
   * {@code UPDATE t SET c = CASE order_id WHEN ? THEN ? … END, … WHERE order_id IN (…) AND event_id
   * IN (…)}: one statement, one update event per row in the binlog.
   */
  private void updateAll() throws SQLException {
    int rows = updates.size();
    StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ");
    List<String> assignments = new ArrayList<>();
    for (Column column : COLUMNS) {
      if (!column.name().equals(KEY)) {
        assignments.add(
            SourceJdbc.quoteIdentifier(column.name())
                + " = CASE "
                + KEY
                + " "
                + String.join(" ", Collections.nCopies(rows, "WHEN ? THEN ?"))
                + " END");
      }
    }
    sql.append(String.join(", ", assignments)).append(matchAll(rows));
    try (PreparedStatement update = connection.prepareStatement(sql.toString())) {
      int parameter = 1;
      for (int c = 0; c < COLUMNS.size(); c++) {
        Column column = COLUMNS.get(c);
        if (column.name().equals(KEY)) {
          continue;
        }
        for (SourceChange.Update updated : updates) {
          update.setLong(parameter++, key(updated.before()));
          SourceRows.bind(update, parameter++, column, updated.after().get(c));
        }
      }
      bindMatches(update, parameter, updates.stream().map(SourceChange.Update::before).toList());
      requireAllMatched(update.executeUpdate(), "updates", beforeImages(updates));
      statements++;
    }
    updates.clear();
  }

  private void deleteAll() throws SQLException {
    int rows = deletes.size();
    try (PreparedStatement delete =
        connection.prepareStatement("DELETE FROM " + table + matchAll(rows))) {
      List<Row> before = deletes.stream().map(SourceChange.Delete::before).toList();
      bindMatches(delete, 1, before);
      requireAllMatched(delete.executeUpdate(), "deletes", before);
      statements++;
    }
    deletes.clear();
  }

  private void updateKey(SourceChange.Update updated) throws SQLException {
    SourceRows.bind(keyUpdate, 1, updated.after());
    keyUpdate.setLong(COLUMNS.size() + 1, key(updated.before()));
    keyUpdate.setLong(COLUMNS.size() + 2, eventId(updated.before()));
    requireAllMatched(keyUpdate.executeUpdate(), "updates", List.of(updated.before()));
    statements++;
  }

  private static String matchAll(int rows) {
    return " WHERE " + KEY + " IN " + tuple(rows) + " AND " + EVENT_ID + " IN " + tuple(rows);
  }

  private static void bindMatches(PreparedStatement statement, int first, List<Row> before)
      throws SQLException {
    int parameter = first;
    for (Row row : before) {
      statement.setLong(parameter++, key(row));
    }
    for (Row row : before) {
      statement.setLong(parameter++, eventId(row));
    }
  }

  /** Names a before image no row matched, so the user can find the divergence. */
  private void requireAllMatched(int matched, String what, List<Row> before) throws SQLException {
    if (matched == before.size()) {
      return;
    }
    Row unmatched = firstUnmatched(before);
    throw new SQLException(
        "No row matched "
            + (before.size() - matched)
            + " of "
            + before.size()
            + " "
            + what
            + " sent together"
            + (unmatched == null
                ? ""
                : ", e.g. order_id " + key(unmatched) + " at event_id " + eventId(unmatched))
            + ": the table no longer follows the workload; reset it (OrdersTable.reset()) and write"
            + " the workload from its start");
  }

  private @Nullable Row firstUnmatched(List<Row> before) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT " + KEY + ", " + EVENT_ID + " FROM " + table + " WHERE " + KEY + " = ?")) {
      for (Row row : before) {
        select.setLong(1, key(row));
        try (ResultSet found = select.executeQuery()) {
          if (!found.next() || found.getLong(2) != eventId(row)) {
            return row;
          }
        }
      }
    }
    return null;
  }

  private String keyUpdateSql() {
    List<String> assignments = new ArrayList<>();
    for (Column column : COLUMNS) {
      assignments.add(SourceJdbc.quoteIdentifier(column.name()) + " = ?");
    }
    return "UPDATE "
        + table
        + " SET "
        + String.join(", ", assignments)
        + " WHERE "
        + KEY
        + " = ? AND "
        + EVENT_ID
        + " = ?";
  }

  private static List<Row> beforeImages(List<SourceChange.Update> updates) {
    return updates.stream().map(SourceChange.Update::before).toList();
  }

  private static String tuple(int size) {
    return "(" + String.join(", ", Collections.nCopies(size, "?")) + ")";
  }

  private static long key(Row row) {
    return (Long) Objects.requireNonNull(row.get(KEY), "order_id");
  }

  private static long eventId(Row row) {
    return Objects.requireNonNull(row.eventId(), "event_id");
  }

  @Override
  public void close() throws SQLException {
    inserts.clear();
    updates.clear();
    deletes.clear();
    keyUpdate.close();
  }
}
