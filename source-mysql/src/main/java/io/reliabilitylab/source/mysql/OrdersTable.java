package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.SourceTable;
import io.reliabilitylab.spi.data.TableSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The lab's {@code orders} table in a source database ({@link TableSchema#ORDERS}): its DDL, reset,
 * row count and largest event id.
 *
 * <pre>{@code
 * OrdersTable orders = OrdersTable.in(source);
 * orders.reset();                       // drop and create, empty
 * long rows = orders.rowCount();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class OrdersTable implements SourceTable {

  /** The table name the lab uses unless told otherwise. */
  public static final String DEFAULT_NAME = TableSchema.ORDERS.name();

  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  private final SourceDatabase source;
  private final String name;

  private OrdersTable(SourceDatabase source, String name) {
    this.source = source;
    this.name = name;
  }

  /** The {@value #DEFAULT_NAME} table of a source. */
  public static OrdersTable in(SourceDatabase source) {
    return in(source, DEFAULT_NAME);
  }

  /** An orders-shaped table under another name. */
  public static OrdersTable in(SourceDatabase source, String name) {
    Objects.requireNonNull(source, "source");
    return new OrdersTable(source, checkName(name));
  }

  /**
   * The {@code CREATE TABLE} statement: the columns of {@link TableSchema#ORDERS} in canonical
   * order, {@code order_id} the primary key and {@code event_id} unique.
   */
  public static String createStatement(String name) {
    return "CREATE TABLE "
        + SourceJdbc.quoteIdentifier(checkName(name))
        + " (\n"
        + "  order_id BIGINT NOT NULL,\n"
        + "  business_key VARCHAR(64) NOT NULL,\n"
        + "  customer_id BIGINT NOT NULL,\n"
        + "  amount_cents BIGINT NOT NULL,\n"
        + "  status VARCHAR(16) NOT NULL,\n"
        + "  event_id BIGINT NOT NULL,\n"
        + "  seed INT NOT NULL,\n"
        + "  updated_at TIMESTAMP(3) NOT NULL,\n"
        + "  PRIMARY KEY (order_id),\n"
        + "  UNIQUE KEY "
        + SourceJdbc.quoteIdentifier("uk_" + name + "_event_id")
        + " (event_id)\n"
        + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
  }

  @Override
  public String name() {
    return name;
  }

  /** The table's name quoted for SQL. */
  public String quotedName() {
    return SourceJdbc.quoteIdentifier(name);
  }

  /** {@code database.table}, as a CDC source's table list names it. */
  @Override
  public String qualifiedName() {
    return source.database() + "." + name;
  }

  /** Creates the table if it does not exist. */
  public void create() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          createStatement(name).replaceFirst("^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS "));
    }
  }

  /** Drops and re-creates the table, empty. */
  @Override
  public void reset() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS " + quotedName());
      statement.execute(createStatement(name));
    }
  }

  /** Drops the table if it exists. */
  @Override
  public void drop() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS " + quotedName());
    }
  }

  /** How many rows the table holds. */
  @Override
  public long rowCount() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + quotedName())) {
      result.next();
      return result.getLong(1);
    }
  }

  /** The largest {@code event_id} in the table, empty when the table is. */
  @Override
  public OptionalLong maxEventId() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT MAX(event_id) FROM " + quotedName())) {
      result.next();
      long max = result.getLong(1);
      return result.wasNull() ? OptionalLong.empty() : OptionalLong.of(max);
    }
  }

  /**
   * Verifies the server's binlog settings and the CDC account's privileges ({@link
   * CdcPrerequisites}).
   */
  @Override
  public void verifyCapture() {
    CdcPrerequisites.verify(source);
  }

  @Override
  public String toString() {
    return "OrdersTable[" + qualifiedName() + " @ " + source.jdbcUrl() + "]";
  }

  private static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (!TABLE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Table name '"
              + name
              + "' is not accepted: use letters, digits and _ (not first), at most 64 characters,"
              + " e.g. orders");
    }
    return name;
  }
}
