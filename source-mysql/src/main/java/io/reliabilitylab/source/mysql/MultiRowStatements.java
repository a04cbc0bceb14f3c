package io.reliabilitylab.source.mysql;

import io.reliabilitylab.source.jdbc.CommitLoop;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The changes of one commit as multi-row statements, so that the server parses one statement per
 * few hundred changes instead of one per change. Each key's changes must reach the server in
 * workload order; distinct keys are independent. So the changes are laid out in layers: a change
 * goes into the layer after the one holding its key's previous change, and a layer holds each key
 * at most once — one multi-row {@code INSERT}, one {@code UPDATE … CASE} and one {@code DELETE …
 * IN} per layer (in chunks of {@link #ROWS_PER_STATEMENT}), layers sent in order; a commit needs
 * about as many layers as it changes one key, not one statement per change. A primary-key update
 * stays a single {@code UPDATE} of its own (one update event in the binlog) in the layer after both
 * its keys. The workload's last change goes into the last layer and its statement last, so that the
 * binlog ends where the workload does.
 *
 * <p>Updates and deletes match their before images' keys and event ids, and a statement must match
 * all its rows: event ids are unique, so a row matches only the before image written for it, and a
 * short count means the table no longer follows the workload.
 */
final class MultiRowStatements implements CommitLoop.ChangeStatements {

  /** Rows per statement: large enough to amortise the parse, small for the {@code CASE} scan. */
  static final int ROWS_PER_STATEMENT = 256;

  /** Changes held before they are sent even without a flush: bounds the memory of a huge commit. */
  private static final int MOST_PENDING = 20_000;

  private static final List<Column> COLUMNS = TableSchema.ORDERS.columns();
  private static final String KEY = "order_id";
  private static final String EVENT_ID = "event_id";

  private final Connection connection;
  private final String table;
  private final PreparedStatement keyUpdate;
  private final List<Layer> layers = new ArrayList<>();
  private final Map<Long, Integer> layerOfKey = new HashMap<>();
  private final Map<Integer, String> insertSql = new HashMap<>();
  private @Nullable SourceChange lastChange;
  private int pending;
  private long added;

  MultiRowStatements(Connection connection, String table) throws SQLException {
    this.connection = connection;
    this.table = SourceJdbc.quoteIdentifier(table);
    this.keyUpdate = connection.prepareStatement(keyUpdateSql());
  }

  /** Adds a change to the layer after its key's previous one. */
  @Override
  public void add(SourceChange change) throws SQLException {
    if (lastChange != null) {
      place(lastChange, false);
    }
    lastChange = change;
    if (++pending >= MOST_PENDING) {
      flush();
    }
  }

  /** Sends every pending change, layer by layer. */
  @Override
  public void flush() throws SQLException {
    if (lastChange != null) {
      place(lastChange, true);
      lastChange = null;
    }
    for (Layer layer : layers) {
      layer.send();
    }
    layers.clear();
    layerOfKey.clear();
    pending = 0;
  }

  /** Puts a change into its layer; the workload's last change into the last one. */
  private void place(SourceChange change, boolean last) {
    List<Long> keys = keysOf(change);
    int layer = 0;
    for (long key : keys) {
      Integer previous = layerOfKey.get(key);
      if (previous != null) {
        layer = Math.max(layer, previous + 1);
      }
    }
    if (last) {
      layer = Math.max(layer, layers.size() - 1);
    }
    while (layers.size() <= layer) {
      layers.add(new Layer());
    }
    layers.get(layer).add(change, ++added);
    for (long key : keys) {
      layerOfKey.put(key, layer);
    }
  }

  /** The keys a change touches: an update that changes the key touches both. */
  static List<Long> keysOf(SourceChange change) {
    if (change instanceof SourceChange.Insert inserted) {
      return List.of(key(inserted.after()));
    }
    if (change instanceof SourceChange.Update updated) {
      long before = key(updated.before());
      long after = key(updated.after());
      return before == after ? List.of(before) : List.of(before, after);
    }
    if (change instanceof SourceChange.Delete deleted) {
      return List.of(key(deleted.before()));
    }
    throw new IllegalArgumentException("Unknown change " + change);
  }

  /** Changes of distinct keys, sent as one statement per kind, the latest kind last. */
  private final class Layer {
    private final List<Row> inserts = new ArrayList<>();
    private final List<SourceChange.Update> updates = new ArrayList<>();
    private final List<SourceChange.Update> keyUpdates = new ArrayList<>();
    private final List<SourceChange.Delete> deletes = new ArrayList<>();
    private final long[] lastOfKind = new long[4];

    void add(SourceChange change, long index) {
      if (change instanceof SourceChange.Insert inserted) {
        inserts.add(inserted.after());
        lastOfKind[0] = index;
      } else if (change instanceof SourceChange.Update updated) {
        if (key(updated.before()) == key(updated.after())) {
          updates.add(updated);
          lastOfKind[1] = index;
        } else {
          keyUpdates.add(updated);
          lastOfKind[2] = index;
        }
      } else {
        deletes.add((SourceChange.Delete) change);
        lastOfKind[3] = index;
      }
    }

    void send() throws SQLException {
      Integer[] order = {0, 1, 2, 3};
      Arrays.sort(order, Comparator.comparingLong(kind -> lastOfKind[kind]));
      for (int kind : order) {
        switch (kind) {
          case 0 -> {
            for (List<Row> chunk : chunks(inserts)) {
              insertAll(chunk);
            }
          }
          case 1 -> {
            for (List<SourceChange.Update> chunk : chunks(updates)) {
              updateAll(chunk);
            }
          }
          case 2 -> {
            for (SourceChange.Update updated : keyUpdates) {
              updateKey(updated);
            }
          }
          default -> {
            for (List<SourceChange.Delete> chunk : chunks(deletes)) {
              deleteAll(chunk);
            }
          }
        }
      }
    }
  }

  private static <T> List<List<T>> chunks(List<T> items) {
    List<List<T>> chunks = new ArrayList<>();
    for (int from = 0; from < items.size(); from += ROWS_PER_STATEMENT) {
      chunks.add(items.subList(from, Math.min(items.size(), from + ROWS_PER_STATEMENT)));
    }
    return chunks;
  }

  private void insertAll(List<Row> inserts) throws SQLException {
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
    }
  }

  /**
   * {@code UPDATE t SET c = CASE order_id WHEN ? THEN ? … END, … WHERE order_id IN (…) AND event_id
   * IN (…)}: one statement, one update event per row in the binlog.
   */
  private void updateAll(List<SourceChange.Update> updates) throws SQLException {
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
      requireAllMatched(update.executeUpdate(), "updates", updates);
    }
  }

  private void deleteAll(List<SourceChange.Delete> deletes) throws SQLException {
    int rows = deletes.size();
    try (PreparedStatement delete =
        connection.prepareStatement("DELETE FROM " + table + matchAll(rows))) {
      List<Row> before = deletes.stream().map(SourceChange.Delete::before).toList();
      bindMatches(delete, 1, before);
      requireAllMatched(delete.executeUpdate(), "deletes", deletes);
    }
  }

  private void updateKey(SourceChange.Update updated) throws SQLException {
    SourceRows.bind(keyUpdate, 1, updated.after());
    keyUpdate.setLong(COLUMNS.size() + 1, key(updated.before()));
    keyUpdate.setLong(COLUMNS.size() + 2, eventId(updated.before()));
    requireAllMatched(keyUpdate.executeUpdate(), "updates", List.of(updated));
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

  /**
   * A change a statement applied: its before image, and what its key holds once the change matched
   * — the after image's key at its event id, or nothing for a delete.
   */
  private record Matched(Row before, @Nullable Row after) {
    static Matched of(SourceChange change) {
      if (change instanceof SourceChange.Update updated) {
        return new Matched(updated.before(), updated.after());
      }
      return new Matched(((SourceChange.Delete) change).before(), null);
    }
  }

  /** Names a before image no row matched, so the user can find the divergence. */
  private void requireAllMatched(int matched, String what, List<? extends SourceChange> changes)
      throws SQLException {
    if (matched == changes.size()) {
      return;
    }
    Row unmatched = firstUnmatched(changes.stream().map(Matched::of).toList());
    throw new SQLException(
        "No row matched "
            + (changes.size() - matched)
            + " of "
            + changes.size()
            + " "
            + what
            + " sent together"
            + (unmatched == null
                ? ""
                : ", e.g. order_id " + key(unmatched) + " at event_id " + eventId(unmatched))
            + ": the table no longer follows the workload; reset it (OrdersTable.reset()) and write"
            + " the workload from its start");
  }

  /**
   * The statement has run, so a matched update's key holds its after image's event id and a matched
   * delete's key is gone: a before image whose key shows neither did not match. (A delete whose key
   * is gone may not have matched either: then no example is named.)
   */
  private @Nullable Row firstUnmatched(List<Matched> changes) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT " + KEY + ", " + EVENT_ID + " FROM " + table + " WHERE " + KEY + " = ?")) {
      for (Matched change : changes) {
        Row after = change.after();
        select.setLong(1, key(after == null ? change.before() : after));
        try (ResultSet found = select.executeQuery()) {
          boolean present = found.next();
          if (after == null ? present : !present || found.getLong(2) != eventId(after)) {
            return change.before();
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
    layers.clear();
    layerOfKey.clear();
    lastChange = null;
    keyUpdate.close();
  }
}
