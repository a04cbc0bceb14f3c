package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.ResultRows;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Reads a source table as a {@link RowSet} at one consistent point ({@code START TRANSACTION WITH
 * CONSISTENT SNAPSHOT}, repeatable read), streaming row by row in primary-key order, so that a
 * table larger than the heap can be compared. Each {@link RowSet#open()} reads the table anew.
 *
 * <pre>{@code
 * RowSet sourceRows = SourceRowReader.orders(source);
 * try (CloseableIterator<Row> rows = sourceRows.open()) {
 *   while (rows.hasNext()) { ... }
 * }
 * }</pre>
 *
 * Values follow {@link Row}'s types: {@code BIGINT} as {@code Long}, {@code INT} as {@code
 * Integer}, {@code VARCHAR} as {@code String}, {@code TIMESTAMP} as an {@code Instant} in UTC.
 * Reading fails with an {@link IllegalStateException} naming the table and the cause.
 */
@API(status = EXPERIMENTAL)
public final class SourceRowReader implements RowSet {

  private final SourceDatabase source;
  private final TableSchema schema;
  private final String table;

  private SourceRowReader(SourceDatabase source, TableSchema schema, String table) {
    this.source = source;
    this.schema = schema;
    this.table = table;
  }

  /** The {@code orders} table, rows of {@link TableSchema#ORDERS}. */
  public static SourceRowReader orders(SourceDatabase source) {
    return table(source, TableSchema.ORDERS, OrdersTable.DEFAULT_NAME);
  }

  /** Any table with the schema's columns, read as rows of {@code schema}. */
  public static SourceRowReader table(SourceDatabase source, TableSchema schema, String table) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
    return new SourceRowReader(source, schema, table);
  }

  @Override
  public TableSchema schema() {
    return schema;
  }

  @Override
  public String description() {
    return "source " + source.database() + "." + table + " @ " + source.jdbcUrl();
  }

  @Override
  public CloseableIterator<Row> open() {
    String sql =
        "SELECT "
            + SourceRows.columnList(schema)
            + " FROM "
            + SourceJdbc.quoteIdentifier(table)
            + " ORDER BY "
            + String.join(
                ", ", schema.keyColumns().stream().map(SourceJdbc::quoteIdentifier).toList());
    Connection connection = null;
    try {
      connection = source.connect();
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      connection.setAutoCommit(false);
      try (Statement begin = connection.createStatement()) {
        begin.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
      }
      PreparedStatement statement =
          connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      // Connector/J streams row by row with this fetch size instead of buffering the result.
      statement.setFetchSize(Integer.MIN_VALUE);
      return new ResultRows(
          connection, statement.executeQuery(), row -> SourceRows.read(row, schema), this::failure);
    } catch (SQLException e) {
      SourceJdbc.closeQuietly(connection);
      throw failure(e);
    }
  }

  /**
   * Digests computed by the server in SQL, for a table whose key is one integral column and whose
   * columns SQL can write in canonical form, on MariaDB 10.8 or later; empty otherwise.
   */
  @Override
  public Optional<KeyRangeDigests> keyRangeDigests() {
    return SourceDigests.open(source, schema, table, description());
  }

  private IllegalStateException failure(SQLException e) {
    return new IllegalStateException(
        "Cannot read "
            + description()
            + ": "
            + e.getMessage()
            + " (check that the table exists and has the columns of "
            + schema.name()
            + ")",
        e);
  }

  @Override
  public String toString() {
    return "SourceRowReader[" + description() + "]";
  }
}
