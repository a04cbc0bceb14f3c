package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A database the lab captures changes from, whatever its engine (MySQL/MariaDB's binlog,
 * PostgreSQL's logical decoding): what the runner prepares, writes, reads and records. Closing it
 * stops what the lab started; an external database is left as it was.
 *
 * <pre>{@code
 * try (CdcSource source = EmbeddedPostgres.start()) {
 *   SourceTable orders = source.orders();
 *   orders.reset();
 *   orders.verifyCapture();
 *   source.writer().write(workload);
 *   RowSet rows = source.rows(TableSchema.ORDERS, orders.name());
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface CdcSource extends AutoCloseable {

  /** What the source is, e.g. {@code embedded-mariadb} or {@code embedded-postgres}. */
  String kind();

  /** Server product and version as the server reports it. */
  String serverVersion() throws SQLException;

  /** The host to connect to, e.g. {@code 127.0.0.1}. */
  String host();

  /** The TCP port to connect to. */
  int port();

  /** The database that holds the captured tables. */
  String database();

  /** A JDBC URL for {@link #database()} without credentials in it (safe to log and record). */
  String jdbcUrl();

  /** The account the capture reads with; its password is registered as a secret. */
  Credentials cdcCredentials();

  /** Where a pipeline finds {@code table} and the account it captures it with. */
  default SourceEndpoint endpoint(String table) {
    return new SourceEndpoint(jdbcUrl(), host(), port(), database(), table, cdcCredentials());
  }

  /** A new connection that may create tables and write the workload; the caller closes it. */
  Connection connect() throws SQLException;

  /** The orders-shaped table named {@code name}. */
  SourceTable orders(String name);

  /** The lab's {@code orders} table. */
  default SourceTable orders() {
    return orders(TableSchema.ORDERS.name());
  }

  /** A writer of workload changes with these settings. */
  ChangeWriter writer(WriterSettings settings);

  /** A writer into {@code orders}, as fast as it can, one commit per source transaction. */
  default ChangeWriter writer() {
    return writer(WriterSettings.orders());
  }

  /** {@code table}'s rows, read consistently each time they are opened, in key order. */
  RowSet rows(TableSchema schema, String table);

  /**
   * Where the source's change log is now (binlog file and offset, or WAL LSN), for diagnostics and
   * the run record; empty when the server keeps none.
   */
  Optional<SourcePosition> position() throws SQLException;

  /** Stops what the lab started; never throws, and is safe to call more than once. */
  @Override
  void close();
}
