package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A result set read as a stream of rows, inside the read-only transaction of a connection it owns:
 * closing it (or reading past the last row, or a failure) ends the transaction and closes the
 * connection.
 */
@API(status = EXPERIMENTAL)
public final class ResultRows implements CloseableIterator<Row> {

  /** Reads the result set's current row. */
  @FunctionalInterface
  public interface Reader {
    Row read(ResultSet result) throws SQLException;
  }

  private final Connection connection;
  private final ResultSet result;
  private final Reader reader;
  private final Function<SQLException, RuntimeException> failure;
  private @Nullable Row next;
  private boolean done;

  /**
   * @param failure turns a failed read into the exception the caller throws, naming the table
   */
  public ResultRows(
      Connection connection,
      ResultSet result,
      Reader reader,
      Function<SQLException, RuntimeException> failure) {
    this.connection = Objects.requireNonNull(connection, "connection");
    this.result = Objects.requireNonNull(result, "result");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (done) {
      return false;
    }
    try {
      if (result.next()) {
        next = reader.read(result);
        return true;
      }
      close();
      return false;
    } catch (SQLException e) {
      close();
      throw failure.apply(e);
    }
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows");
    }
    Row row = Objects.requireNonNull(next);
    next = null;
    return row;
  }

  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    closeQuietly(result);
    try {
      connection.commit();
    } catch (SQLException e) {
      // a read-only snapshot: nothing to lose when its end fails
    }
    closeQuietly(connection);
  }

  /** Closes a JDBC resource, ignoring a failure: it is discarded either way. */
  public static void closeQuietly(@Nullable AutoCloseable resource) {
    if (resource != null) {
      try {
        resource.close();
      } catch (Exception e) {
        // discarded either way
      }
    }
  }
}
