package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.ResultRows;
import io.reliabilitylab.source.jdbc.RowValues;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Reads a PostgreSQL source table as a {@link RowSet} at one consistent point (a repeatable-read
 * transaction's snapshot), streaming through a cursor in primary-key order, so that a table larger
 * than the heap can be compared. Each {@link RowSet#open()} reads the table anew. No digests are
 * pushed down yet: the checks compare row by row.
 */
@API(status = EXPERIMENTAL)
public final class PostgresRowReader implements RowSet {

  private static final int FETCH_SIZE = 2_000;

  private final PostgresSource source;
  private final TableSchema schema;
  private final String table;

  private PostgresRowReader(PostgresSource source, TableSchema schema, String table) {
    this.source = source;
    this.schema = schema;
    this.table = table;
  }

  /** The {@code orders} table, rows of {@link TableSchema#ORDERS}. */
  public static PostgresRowReader orders(PostgresSource source) {
    return table(source, TableSchema.ORDERS, PostgresOrdersTable.DEFAULT_NAME);
  }

  /** Any table of schema {@code public} with the schema's columns. */
  public static PostgresRowReader table(PostgresSource source, TableSchema schema, String table) {
    return new PostgresRowReader(
        Objects.requireNonNull(source, "source"),
        Objects.requireNonNull(schema, "schema"),
        Objects.requireNonNull(table, "table"));
  }

  @Override
  public TableSchema schema() {
    return schema;
  }

  @Override
  public String description() {
    return "source " + source.database() + ".public." + table + " @ " + source.jdbcUrl();
  }

  @Override
  public CloseableIterator<Row> open() {
    String sql =
        "SELECT "
            + RowValues.columnList(schema, Identifiers::quote)
            + " FROM public."
            + Identifiers.quote(table)
            + " ORDER BY "
            + schema.keyColumns().stream()
                .map(Identifiers::quote)
                .collect(Collectors.joining(", "));
    Connection connection = null;
    try {
      connection = source.connect();
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      connection.setReadOnly(true);
      // pgjdbc reads through a cursor, FETCH_SIZE rows at a time, only inside a transaction
      connection.setAutoCommit(false);
      PreparedStatement statement =
          connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      statement.setFetchSize(FETCH_SIZE);
      return new ResultRows(
          connection, statement.executeQuery(), row -> RowValues.read(row, schema), this::failure);
    } catch (SQLException e) {
      ResultRows.closeQuietly(connection);
      throw failure(e);
    }
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
    return "PostgresRowReader[" + description() + "]";
  }
}
