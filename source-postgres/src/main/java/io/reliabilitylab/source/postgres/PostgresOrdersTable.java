package io.reliabilitylab.source.postgres;

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
 * The lab's {@code orders} table ({@link TableSchema#ORDERS}) in schema {@code public} of a
 * PostgreSQL source: its DDL, reset, row count and largest event id. Its replica identity is {@code
 * FULL}, so that logical decoding carries whole before images of updates and deletes, as the MySQL
 * binlog's full row image does.
 *
 * <pre>{@code
 * PostgresOrdersTable orders = PostgresOrdersTable.in(source);
 * orders.reset();                       // drop and create, empty
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class PostgresOrdersTable implements SourceTable {

  /** The table name the lab uses unless told otherwise. */
  public static final String DEFAULT_NAME = TableSchema.ORDERS.name();

  /**
   * Lower case, since PostgreSQL folds unquoted names; 59 bytes at most, so that its publication's
   * name ({@link #publicationOf}) fits PostgreSQL's 63.
   */
  private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,58}");

  private final PostgresSource source;
  private final String name;

  private PostgresOrdersTable(PostgresSource source, String name) {
    this.source = source;
    this.name = name;
  }

  /** The {@value #DEFAULT_NAME} table of a source. */
  public static PostgresOrdersTable in(PostgresSource source) {
    return in(source, DEFAULT_NAME);
  }

  /** An orders-shaped table under another name. */
  public static PostgresOrdersTable in(PostgresSource source, String name) {
    return new PostgresOrdersTable(Objects.requireNonNull(source, "source"), checkName(name));
  }

  /**
   * The {@code CREATE TABLE} statement: the columns of {@link TableSchema#ORDERS} in canonical
   * order, {@code order_id} the primary key and {@code event_id} unique.
   */
  public static String createStatement(String name) {
    String table = checkName(name);
    return "CREATE TABLE "
        + table
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
        + "  CONSTRAINT uk_"
        + table
        + "_event_id UNIQUE (event_id)\n"
        + ")";
  }

  /**
   * The publication the lab creates with the table, carrying its changes to {@code pgoutput}: what
   * a pipeline capturing {@code table} subscribes to.
   */
  public static String publicationOf(String table) {
    return "srl_" + checkName(table);
  }

  @Override
  public String name() {
    return name;
  }

  /** {@code public.table}, as a capture's table list names it. */
  @Override
  public String qualifiedName() {
    return "public." + name;
  }

  /** The table as a capture target, carried by {@code publication}. */
  public CaptureTarget target(String publication) {
    return CaptureTarget.table(PostgresSource.SCHEMA, name).withPublication(publication);
  }

  /**
   * Drops and re-creates the table, empty, with replica identity {@code FULL}, and its publication
   * ({@link #publicationOf}), as the table's owner: the capture role needs no ownership.
   */
  @Override
  public void reset() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP PUBLICATION IF EXISTS " + publicationOf(name));
      statement.execute("DROP TABLE IF EXISTS " + name);
      statement.execute(createStatement(name));
      statement.execute("ALTER TABLE " + name + " REPLICA IDENTITY FULL");
      statement.execute("CREATE PUBLICATION " + publicationOf(name) + " FOR TABLE " + name);
    }
  }

  /** Drops the table and its publication if they exist. */
  @Override
  public void drop() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP PUBLICATION IF EXISTS " + publicationOf(name));
      statement.execute("DROP TABLE IF EXISTS " + name);
    }
  }

  /**
   * Verifies, as the capture role, logical decoding, a free slot and sender, the role's replication
   * attribute, its {@code SELECT} and the publication ({@link PostgresPrerequisites}).
   */
  @Override
  public void verifyCapture() {
    PostgresPrerequisites.verify(source, target(publicationOf(name)));
  }

  @Override
  public long rowCount() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT count(*) FROM " + name)) {
      result.next();
      return result.getLong(1);
    }
  }

  @Override
  public OptionalLong maxEventId() throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT max(event_id) FROM " + name)) {
      result.next();
      long max = result.getLong(1);
      return result.wasNull() ? OptionalLong.empty() : OptionalLong.of(max);
    }
  }

  @Override
  public String toString() {
    return "PostgresOrdersTable[" + qualifiedName() + " @ " + source.jdbcUrl() + "]";
  }

  private static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (!TABLE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Table name '"
              + name
              + "' is not accepted: use lower-case letters, digits and _ (not first), at most 59"
              + " characters, e.g. orders");
    }
    return name;
  }
}
