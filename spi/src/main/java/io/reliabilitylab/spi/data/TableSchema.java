package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The columns of a reconciled table in their fixed canonical order, its primary key and, where the
 * table has one, the column holding a unique id per write (the lab's {@code event_id}).
 *
 * <p>{@code new TableSchema("orders", List.of(new Column("order_id", ColumnType.BIGINT), ...),
 * List.of("order_id"), "event_id")}
 */
@API(status = STABLE)
public record TableSchema(
    String name, List<Column> columns, List<String> keyColumns, @Nullable String eventIdColumn) {

  /** The reference {@code orders} table of the lab's data model. */
  public static final TableSchema ORDERS =
      new TableSchema(
          "orders",
          List.of(
              new Column("order_id", ColumnType.BIGINT),
              new Column("business_key", ColumnType.VARCHAR),
              new Column("customer_id", ColumnType.BIGINT),
              new Column("amount_cents", ColumnType.BIGINT),
              new Column("status", ColumnType.VARCHAR),
              new Column("event_id", ColumnType.BIGINT),
              new Column("seed", ColumnType.INT),
              new Column("updated_at", ColumnType.TIMESTAMP)),
          List.of("order_id"),
          "event_id");

  public TableSchema {
    Objects.requireNonNull(name, "name");
    columns = List.copyOf(columns);
    keyColumns = List.copyOf(keyColumns);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("Table " + name + " needs at least one column");
    }
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException(
          "Table " + name + " needs a primary key: rows are matched by key");
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      if (seen.put(columns.get(i).name(), i) != null) {
        throw new IllegalArgumentException(
            "Table " + name + " names column " + columns.get(i).name() + " twice");
      }
    }
    for (String key : keyColumns) {
      if (!seen.containsKey(key)) {
        throw new IllegalArgumentException(
            "Key column "
                + key
                + " is not a column of table "
                + name
                + "; columns: "
                + seen.keySet());
      }
    }
    if (eventIdColumn != null) {
      Integer index = seen.get(eventIdColumn);
      if (index == null || columns.get(index).type() != ColumnType.BIGINT) {
        throw new IllegalArgumentException(
            "Event id column " + eventIdColumn + " must be a BIGINT column of table " + name);
      }
    }
  }

  /** The position of a column in canonical order. */
  public int indexOf(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("Table " + name + " has no column " + column);
  }

  /** The positions of the key columns, in key order. */
  public int[] keyIndexes() {
    int[] indexes = new int[keyColumns.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = indexOf(keyColumns.get(i));
    }
    return indexes;
  }

  /** The event id column, if the table has one. */
  public Optional<String> eventId() {
    return Optional.ofNullable(eventIdColumn);
  }

  /** A copy of this schema under another table name (the Iceberg table mirrors the source). */
  public TableSchema withName(String newName) {
    return new TableSchema(newName, columns, keyColumns, eventIdColumn);
  }

  /** Starts a row of this schema; values are given in canonical column order. */
  public Row row(@Nullable Object... values) {
    List<@Nullable Object> list = new ArrayList<>(values.length);
    Collections.addAll(list, values);
    return new Row(this, list);
  }
}
