package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The source side of the IT until harness's {@code OrdersTable} and {@code WorkloadWriter} exist:
 * the {@code orders} DDL, a plain JDBC workload writer that records each write's client commit
 * time, and a JDBC reader of the table.
 */
final class OrdersSourceFixture {

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private OrdersSourceFixture() {}

  static void createOrdersTable(SourceDatabase source) throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS orders");
      statement.execute(
          "CREATE TABLE orders ("
              + " order_id BIGINT NOT NULL PRIMARY KEY,"
              + " business_key VARCHAR(64),"
              + " customer_id BIGINT,"
              + " amount_cents BIGINT,"
              + " status VARCHAR(16),"
              + " event_id BIGINT NOT NULL,"
              + " seed INT,"
              + " updated_at TIMESTAMP(3) NULL DEFAULT NULL"
              + ") ENGINE=InnoDB");
    }
  }

  /** Writes the workload, one source transaction per workload transaction; event id → commit ms. */
  static Map<Long, Long> write(SourceDatabase source, Workload workload) throws SQLException {
    Map<Long, Long> committedAt = new HashMap<>();
    try (Connection connection = source.connect();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO orders (order_id, business_key, customer_id, amount_cents, status,"
                    + " event_id, seed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE orders SET order_id = ?, business_key = ?, customer_id = ?,"
                    + " amount_cents = ?, status = ?, event_id = ?, seed = ?, updated_at = ?"
                    + " WHERE order_id = ?");
        PreparedStatement delete =
            connection.prepareStatement("DELETE FROM orders WHERE order_id = ?")) {
      connection.setAutoCommit(false);
      for (SourceTransaction transaction : workload.transactions()) {
        List<Long> written = new ArrayList<>();
        for (SourceChange change : transaction.changes()) {
          if (change instanceof SourceChange.Insert i) {
            bind(insert, i.after());
            expectOne(insert.executeUpdate(), change);
            written.add(i.after().eventId());
          } else if (change instanceof SourceChange.Update u) {
            bind(update, u.after());
            update.setLong(9, (Long) u.before().get("order_id"));
            expectOne(update.executeUpdate(), change);
            written.add(u.after().eventId());
          } else if (change instanceof SourceChange.Delete d) {
            delete.setLong(1, (Long) d.before().get("order_id"));
            expectOne(delete.executeUpdate(), change);
          }
        }
        connection.commit();
        long now = System.currentTimeMillis();
        for (Long eventId : written) {
          committedAt.put(eventId, now);
        }
      }
    }
    return committedAt;
  }

  private static void expectOne(int count, SourceChange change) {
    if (count != 1) {
      throw new IllegalStateException(count + " rows changed by " + change);
    }
  }

  private static void bind(PreparedStatement statement, Row row) throws SQLException {
    statement.setLong(1, (Long) row.get("order_id"));
    statement.setString(2, (String) row.get("business_key"));
    setLong(statement, 3, (Long) row.get("customer_id"));
    setLong(statement, 4, (Long) row.get("amount_cents"));
    statement.setString(5, (String) row.get("status"));
    statement.setLong(6, (Long) row.get("event_id"));
    Integer seed = (Integer) row.get("seed");
    if (seed == null) {
      statement.setNull(7, Types.INTEGER);
    } else {
      statement.setInt(7, seed);
    }
    Instant updated = (Instant) row.get("updated_at");
    statement.setString(8, updated == null ? null : TIMESTAMP.format(updated));
  }

  private static void setLong(PreparedStatement statement, int index, Long value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, value);
    }
  }

  /** The source table's rows, in key order. */
  static List<Row> read(SourceDatabase source, TableSchema schema) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT order_id, business_key, customer_id, amount_cents, status, event_id, seed,"
                    + " CAST(UNIX_TIMESTAMP(updated_at) * 1000000 AS SIGNED) FROM orders"
                    + " ORDER BY order_id")) {
      while (result.next()) {
        long micros = result.getLong(8);
        Instant updated = result.wasNull() ? null : Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
        rows.add(
            schema.row(
                result.getLong(1),
                result.getString(2),
                result.getObject(3, Long.class),
                result.getObject(4, Long.class),
                result.getString(5),
                result.getLong(6),
                result.getObject(7, Integer.class),
                updated));
      }
    }
    return rows;
  }

  /** Whether the CDC account's binlog dump thread is connected: the source reads the binlog. */
  static boolean binlogReaderConnected(SourceDatabase source) throws SQLException {
    try (Connection connection = source.connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%' AND USER = ?")) {
      statement.setString(1, source.cdcCredentials().user());
      try (ResultSet result = statement.executeQuery()) {
        return result.next() && result.getLong(1) > 0;
      }
    }
  }
}
