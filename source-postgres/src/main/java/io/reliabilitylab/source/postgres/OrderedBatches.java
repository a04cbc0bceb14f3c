package io.reliabilitylab.source.postgres;

import io.reliabilitylab.source.jdbc.CommitLoop;
import io.reliabilitylab.source.jdbc.RowValues;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The changes of one commit as JDBC batches, in workload order: consecutive changes of one kind
 * (insert, update, key update, delete) share a batch, which pgjdbc sends in one round trip (and
 * inserts as multi-row statements); a change of another kind first sends the batch before it. So
 * every change reaches the server in the workload's order, each a row statement of its own in the
 * WAL. Updates and deletes match their before images' keys and event ids and must match one row
 * each: event ids are unique, so a short count means the table no longer follows the workload.
 */
final class OrderedBatches implements CommitLoop.ChangeStatements {

  private static final RowValues ROWS = RowValues.LOCAL_DATE_TIME;
  private static final List<Column> COLUMNS = TableSchema.ORDERS.columns();
  private static final String KEY = "order_id";
  private static final int KEY_INDEX = TableSchema.ORDERS.indexOf(KEY);

  private enum Kind {
    INSERT,
    UPDATE,
    KEY_UPDATE,
    DELETE
  }

  private final PreparedStatement insert;
  private final PreparedStatement update;
  private final PreparedStatement delete;
  private final List<SourceChange> batched = new ArrayList<>();
  private @Nullable Kind kind;

  OrderedBatches(Connection connection, String table) throws SQLException {
    String columns = RowValues.columnList(TableSchema.ORDERS, Identifiers::quote);
    String assignments =
        COLUMNS.stream()
            .map(column -> Identifiers.quote(column.name()) + " = ?")
            .collect(Collectors.joining(", "));
    this.insert =
        connection.prepareStatement(
            "INSERT INTO "
                + table
                + " ("
                + columns
                + ") VALUES ("
                + String.join(", ", Collections.nCopies(COLUMNS.size(), "?"))
                + ")");
    this.update =
        connection.prepareStatement(
            "UPDATE " + table + " SET " + assignments + " WHERE order_id = ? AND event_id = ?");
    this.delete =
        connection.prepareStatement(
            "DELETE FROM " + table + " WHERE order_id = ? AND event_id = ?");
  }

  /** Adds a change after the ones before it. */
  @Override
  public void add(SourceChange change) throws SQLException {
    Kind next = kindOf(change);
    if (kind != null && kind != next) {
      flush();
    }
    kind = next;
    batched.add(change);
    if (change instanceof SourceChange.Insert inserted) {
      ROWS.bind(insert, 1, inserted.after());
      insert.addBatch();
    } else if (change instanceof SourceChange.Update updated) {
      ROWS.bind(update, 1, updated.after());
      bindMatch(update, COLUMNS.size() + 1, updated.before());
      update.addBatch();
    } else {
      bindMatch(delete, 1, ((SourceChange.Delete) change).before());
      delete.addBatch();
    }
  }

  /** Sends the pending batch. */
  @Override
  public void flush() throws SQLException {
    if (kind == null) {
      return;
    }
    PreparedStatement statement =
        switch (kind) {
          case INSERT -> insert;
          case UPDATE, KEY_UPDATE -> update;
          case DELETE -> delete;
        };
    int[] counts = statement.executeBatch();
    for (int i = 0; i < counts.length; i++) {
      // a rewritten multi-row insert reports no per-row count
      boolean applied =
          counts[i] == 1 || (kind == Kind.INSERT && counts[i] == Statement.SUCCESS_NO_INFO);
      if (!applied) {
        Row before = beforeOf(batched.get(i));
        throw new SQLException(
            "No row matched the "
                + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + " of order_id "
                + before.get(KEY_INDEX)
                + " at event_id "
                + before.eventId()
                + ": the table no longer follows the workload; reset it"
                + " (PostgresOrdersTable.reset()) and write the workload from its start");
      }
    }
    batched.clear();
    kind = null;
  }

  private static Kind kindOf(SourceChange change) {
    if (change instanceof SourceChange.Insert) {
      return Kind.INSERT;
    }
    if (change instanceof SourceChange.Update updated) {
      // a key change stays one UPDATE (one WAL record; a capture emits delete + create)
      return Objects.equals(updated.before().get(KEY_INDEX), updated.after().get(KEY_INDEX))
          ? Kind.UPDATE
          : Kind.KEY_UPDATE;
    }
    return Kind.DELETE;
  }

  private static Row beforeOf(SourceChange change) {
    if (change instanceof SourceChange.Insert inserted) {
      return inserted.after();
    }
    if (change instanceof SourceChange.Update updated) {
      return updated.before();
    }
    return ((SourceChange.Delete) change).before();
  }

  private static void bindMatch(PreparedStatement statement, int first, Row before)
      throws SQLException {
    statement.setLong(first, (Long) Objects.requireNonNull(before.get(KEY_INDEX), KEY));
    statement.setLong(first + 1, Objects.requireNonNull(before.eventId(), "event_id"));
  }

  @Override
  public void close() throws SQLException {
    batched.clear();
    try (insert;
        update;
        delete) {
      kind = null;
    }
  }
}
