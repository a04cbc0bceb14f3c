package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import org.apiguardian.api.API;

/**
 * A MySQL-protocol database the lab captures changes from. Closing it stops what the lab started
 * (an embedded server and its data directory); an external database is left as it was.
 *
 * <p>Every connection the lab opens has the session time zone {@code +00:00}, so {@code TIMESTAMP}
 * values are UTC whatever the JVM's or the server's default zone.
 *
 * <pre>{@code
 * try (SourceDatabase source = EmbeddedMariaDb.start()) {
 *   CdcPrerequisites.verify(source);
 *   OrdersTable.in(source).reset();
 *   WorkloadWriter.to(source).write(workload);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface SourceDatabase extends AutoCloseable {

  /** {@code embedded-mariadb}, {@code external} or {@code mysql-container}. */
  String kind();

  /** Server product and version as the server reports it, e.g. {@code 10.11.5-MariaDB-log}. */
  String serverVersion() throws SQLException;

  /** The host to connect to, e.g. {@code 127.0.0.1}. */
  String host();

  /** The TCP port to connect to. */
  int port();

  /** The database (schema) that holds the captured tables. */
  String database();

  /** A JDBC URL for {@link #database()} without any credentials in it (safe to log and record). */
  String jdbcUrl();

  /** The account the CDC connector uses: its password is registered as a secret for redaction. */
  Credentials cdcCredentials();

  /**
   * Where a pipeline finds {@code table} in this database and the CDC account it reads it with:
   * what the lab starts a pipeline with.
   */
  default SourceEndpoint endpoint(String table) {
    return new SourceEndpoint(jdbcUrl(), host(), port(), database(), table, cdcCredentials());
  }

  /**
   * A new connection with the rights to create tables and write the workload, to {@link
   * #database()}, session time zone {@code +00:00}, auto-commit on. The caller closes it.
   */
  Connection connect() throws SQLException;

  /**
   * A new connection as the CDC user ({@link #cdcCredentials()}), with the same settings as {@link
   * #connect()}: what the capture sees, for prerequisite checks.
   */
  default Connection connectAsCdcUser() throws SQLException {
    return SourceJdbc.open(jdbcUrl(), cdcCredentials());
  }

  /** Stops what the lab started; never throws, and is safe to call more than once. */
  @Override
  void close();
}
