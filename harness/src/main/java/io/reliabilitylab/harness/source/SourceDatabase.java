package io.reliabilitylab.harness.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.sql.Connection;
import java.sql.SQLException;
import org.apiguardian.api.API;

/**
 * A MySQL-protocol database the lab captures changes from. Closing it stops what the lab started
 * (an embedded server and its data directory); an external database is left as it was.
 */
@API(status = EXPERIMENTAL)
public interface SourceDatabase extends AutoCloseable {

  /** {@code embedded-mariadb}, {@code external} or {@code mysql-container}. */
  String kind();

  /** Server product and version as the server reports it, e.g. {@code 10.11.5-MariaDB}. */
  String serverVersion() throws SQLException;

  String host();

  int port();

  /** The database (schema) that holds the captured tables. */
  String database();

  /** A JDBC URL for {@link #database()} without any credentials in it (safe to log and record). */
  String jdbcUrl();

  /** The account the CDC connector uses: its password is registered as a secret for redaction. */
  Credentials cdcCredentials();

  /** A connection with the rights to create tables and write the workload. */
  Connection connect() throws SQLException;

  @Override
  void close();

  /** A user name and its password; {@link #toString()} never shows the password. */
  record Credentials(String user, String password) {
    @Override
    public String toString() {
      return "Credentials[user=" + user + ", password=***]";
    }
  }
}
