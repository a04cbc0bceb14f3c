package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * A PostgreSQL database the lab captures changes from by logical decoding. Closing it stops what
 * the lab started (an embedded server and its directory); an external server is left as it was.
 *
 * <pre>{@code
 * try (PostgresSource source = EmbeddedPostgres.start()) {
 *   PostgresPrerequisites.verify(source, CaptureTarget.table("public", "orders"));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface PostgresSource extends CdcSource {

  /** The schema that holds the lab's tables: the server's default, {@code public}. */
  String SCHEMA = "public";

  /** {@code embedded-postgres}, {@code external-postgres} or {@code postgres-container}. */
  @Override
  String kind();

  /** The server's version as it reports it, e.g. {@code 15.14 (Debian 15.14-0+deb12u1)}. */
  @Override
  default String serverVersion() throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet version = statement.executeQuery("SHOW server_version")) {
      version.next();
      return version.getString(1);
    }
  }

  /** The host to connect to, e.g. {@code 127.0.0.1}. */
  String host();

  /** The TCP port to connect to. */
  int port();

  /** The database that holds the captured tables. */
  String database();

  /** A JDBC URL for {@link #database()} without credentials in it (safe to log and record). */
  @Override
  default String jdbcUrl() {
    return "jdbc:postgresql://" + host() + ":" + port() + "/" + database();
  }

  /** The role that owns the captured tables and writes the workload. */
  Credentials adminCredentials();

  /**
   * The role the capture logs in as: {@code LOGIN REPLICATION}, and {@code SELECT} on the captured
   * tables. Its password is registered as a secret for redaction.
   */
  @Override
  Credentials cdcCredentials();

  /** A new connection as {@link #adminCredentials()}, auto-commit on; the caller closes it. */
  @Override
  default Connection connect() throws SQLException {
    return open(jdbcUrl(), adminCredentials());
  }

  /** A new connection as {@link #cdcCredentials()}: what the capture sees. */
  default Connection connectAsCdcUser() throws SQLException {
    return open(jdbcUrl(), cdcCredentials());
  }

  @Override
  default PostgresOrdersTable orders(String name) {
    return PostgresOrdersTable.in(this, name);
  }

  @Override
  default PostgresOrdersTable orders() {
    return PostgresOrdersTable.in(this);
  }

  @Override
  default PostgresWorkloadWriter writer(WriterSettings settings) {
    PostgresWorkloadWriter.Builder builder =
        PostgresWorkloadWriter.builder(this)
            .table(settings.table())
            .eventsPerSecond(settings.eventsPerSecond())
            .transactionsPerCommit(settings.transactionsPerCommit());
    if (settings.listener() != null) {
      builder.listener(settings.listener());
    }
    return builder.build();
  }

  @Override
  default PostgresRowReader rows(TableSchema schema, String table) {
    return PostgresRowReader.table(this, schema, table);
  }

  /** The WAL's insert position now ({@code pg_current_wal_lsn()}), as the offset of log "". */
  @Override
  default Optional<SourcePosition> position() throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet lsn = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      lsn.next();
      return Optional.of(SourcePosition.of("", Lsn.parse(lsn.getString(1)), 0));
    }
  }

  /** A connection in UTC, so that {@code timestamptz} values read the same on any JVM. */
  static Connection open(String url, Credentials credentials) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", credentials.user());
    properties.setProperty("password", credentials.revealPassword());
    properties.setProperty("options", "-c TimeZone=UTC");
    properties.setProperty("connectTimeout", "10");
    // a batch of single-row INSERTs goes as multi-row INSERTs
    properties.setProperty("reWriteBatchedInserts", "true");
    return DriverManager.getConnection(url, properties);
  }
}
