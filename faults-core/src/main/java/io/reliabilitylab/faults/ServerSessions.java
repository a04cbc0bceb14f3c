package io.reliabilitylab.faults;

import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * What a source server shows of itself through plain JDBC as the capture account: how long it has
 * been up, and whether a change-log reader of that account (a MySQL/MariaDB binlog dump, a
 * PostgreSQL walsender) is connected. An account sees its own sessions without further privilege.
 */
final class ServerSessions {

  private static final Duration POLL = Duration.ofMillis(50);

  private final SourceEndpoint source;
  private final boolean postgres;

  ServerSessions(SourceEndpoint source) {
    this.source = source;
    this.postgres = source.jdbcUrl().startsWith("jdbc:postgresql:");
  }

  /** Whether a process with this id runs on this machine. */
  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** The server's uptime; empty while it does not answer. */
  Optional<Duration> uptime() {
    String sql =
        postgres
            ? "SELECT floor(extract(epoch FROM now() - pg_postmaster_start_time()))::bigint"
            : "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                + " WHERE VARIABLE_NAME = 'UPTIME'";
    try (Connection connection = open();
        PreparedStatement query = connection.prepareStatement(sql);
        ResultSet rows = query.executeQuery()) {
      return rows.next() ? Optional.of(Duration.ofSeconds(rows.getLong(1))) : Optional.empty();
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  /**
   * Where the server's change log ends now (a binlog file and offset, a WAL LSN); empty while it
   * does not answer or the account may not ask.
   */
  Optional<String> logPosition() {
    String sql = postgres ? "SELECT pg_current_wal_lsn()::text" : "SHOW MASTER STATUS";
    try (Connection connection = open();
        PreparedStatement query = connection.prepareStatement(sql);
        ResultSet rows = query.executeQuery()) {
      if (!rows.next()) {
        return Optional.empty();
      }
      return Optional.of(postgres ? rows.getString(1) : rows.getString(1) + ":" + rows.getLong(2));
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  /** The connection id of the account's change-log reader, if one is connected. */
  Optional<Long> changeLogReader() throws SQLException {
    String sql =
        postgres
            ? "SELECT pid FROM pg_stat_activity WHERE backend_type = 'walsender'"
                + " AND usename = current_user"
            : "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'"
                + " AND USER = ?";
    try (Connection connection = open();
        PreparedStatement query = connection.prepareStatement(sql)) {
      if (!postgres) {
        query.setString(1, source.user());
      }
      try (ResultSet rows = query.executeQuery()) {
        return rows.next() ? Optional.of(rows.getLong(1)) : Optional.empty();
      }
    }
  }

  /** Ends one of the account's sessions; whether the server accepted. */
  boolean kill(long connectionId) throws SQLException {
    try (Connection connection = open()) {
      if (postgres) {
        try (PreparedStatement terminate =
            connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
          terminate.setInt(1, Math.toIntExact(connectionId));
          try (ResultSet rows = terminate.executeQuery()) {
            return rows.next() && rows.getBoolean(1);
          }
        }
      }
      try (java.sql.Statement kill = connection.createStatement()) {
        kill.execute("KILL CONNECTION " + connectionId);
        return true;
      } catch (SQLException e) {
        // ER_NO_SUCH_THREAD: it ended before the kill
        if (e.getErrorCode() == 1094) {
          return false;
        }
        throw e;
      }
    }
  }

  /** Whether a session with this id is still listed. */
  boolean listed(long connectionId) throws SQLException {
    String sql =
        postgres
            ? "SELECT 1 FROM pg_stat_activity WHERE pid = ?"
            : "SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?";
    try (Connection connection = open();
        PreparedStatement query = connection.prepareStatement(sql)) {
      query.setLong(1, connectionId);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next();
      }
    }
  }

  /**
   * Recovery starts once a change-log reader of the account other than {@code replaced} (any, when
   * null: a restarted server has no old one) is connected.
   */
  RecoveryStart readerReconnected(@Nullable Long replaced, Clock clock) {
    return (faultAt, timeout) -> {
      long deadline = System.nanoTime() + timeout.toNanos();
      String problem = "";
      while (System.nanoTime() - deadline < 0) {
        try {
          Optional<Long> reader = changeLogReader();
          if (reader.isPresent() && !reader.get().equals(replaced)) {
            Instant at = clock.instant();
            return new RecoveryStart.Moment(
                at,
                Map.of(
                    "reconnected_at", at.toString(),
                    "reader_connection_id", Long.toString(reader.get()),
                    "reconnected_after_ms",
                        Long.toString(Duration.between(faultAt, at).toMillis())));
          }
        } catch (SQLException e) {
          problem = "; the last look failed: " + e.getMessage();
        }
        Thread.sleep(POLL.toMillis());
      }
      throw new TimeoutException(
          "no change-log reader of "
              + source.user()
              + (replaced != null ? " replaced connection " + replaced : "")
              + " on "
              + source.description()
              + " within "
              + timeout
              + problem);
    };
  }

  private Connection open() throws SQLException {
    return DriverManager.getConnection(
        source.jdbcUrl(), source.user(), source.credentials().revealPassword());
  }
}
