package io.reliabilitylab.faults;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The walsender that streams one logical replication slot on a PostgreSQL server, seen and
 * terminated through plain JDBC as the slot's own account: a role may read the statistics of, and
 * terminate, its own backends without further privilege.
 */
final class WalSenders {

  /**
   * The walsender holding the slot: its backend pid, the client it serves, and how far it has sent
   * the WAL ({@code sent_lsn}; null where the account may not see it).
   */
  record WalSender(int pid, String client, @Nullable String sentLsn) {}

  /** A termination: the walsender, whether the server accepted it, and the WAL end right after. */
  record Termination(WalSender walSender, boolean accepted, String walEnd) {}

  private final SourceEndpoint source;
  private final String slot;

  WalSenders(SourceEndpoint source, String slot) {
    this.source = source;
    this.slot = slot;
  }

  String slot() {
    return slot;
  }

  /** The walsender holding the slot now, if the slot is active. */
  Optional<WalSender> current() throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement(
                // pg_stat_activity shows the role its own backends' clients
                "SELECT s.active_pid, coalesce(host(a.client_addr), 'local') || ':'"
                    + " || coalesce(a.client_port, -1), r.sent_lsn::text"
                    + " FROM pg_replication_slots s"
                    + " LEFT JOIN pg_stat_activity a ON a.pid = s.active_pid"
                    + " LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid"
                    + " WHERE s.slot_name = ? AND s.active")) {
      query.setString(1, slot);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next()
            ? Optional.of(new WalSender(rows.getInt(1), rows.getString(2), rows.getString(3)))
            : Optional.empty();
      }
    }
  }

  /** The server's WAL end now ({@code pg_current_wal_lsn()}). */
  String walEnd() throws SQLException {
    try (Connection connection = open();
        PreparedStatement query = connection.prepareStatement("SELECT pg_current_wal_lsn()::text");
        ResultSet rows = query.executeQuery()) {
      rows.next();
      return rows.getString(1);
    }
  }

  /**
   * Whether the WAL grew past {@code lsn} and the walsender sent past it too, where its sent
   * position is visible: PostgreSQL shows it only to superusers and {@code pg_read_all_stats}, not
   * to the walsender's own role.
   */
  boolean streamingPast(WalSender walSender, String lsn) throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT pg_current_wal_lsn() > ?::pg_lsn"
                    + " AND coalesce(?::pg_lsn > ?::pg_lsn, true)")) {
      query.setString(1, lsn);
      query.setString(2, walSender.sentLsn());
      query.setString(3, lsn);
      try (ResultSet rows = query.executeQuery()) {
        rows.next();
        return rows.getBoolean(1);
      }
    }
  }

  /** Terminates the walsender's backend, then reads the WAL end in the same session. */
  Termination terminate(WalSender walSender) throws SQLException {
    try (Connection connection = open();
        PreparedStatement terminate =
            connection.prepareStatement("SELECT pg_terminate_backend(?)");
        PreparedStatement end = connection.prepareStatement("SELECT pg_current_wal_lsn()::text")) {
      terminate.setInt(1, walSender.pid());
      boolean accepted;
      try (ResultSet rows = terminate.executeQuery()) {
        accepted = rows.next() && rows.getBoolean(1);
      }
      try (ResultSet rows = end.executeQuery()) {
        rows.next();
        return new Termination(walSender, accepted, rows.getString(1));
      }
    }
  }

  /** Whether a backend with {@code pid} is still listed in {@code pg_stat_activity}. */
  boolean listed(int pid) throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement("SELECT 1 FROM pg_stat_activity WHERE pid = ?")) {
      query.setInt(1, pid);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next();
      }
    }
  }

  private Connection open() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", source.user());
    properties.setProperty("password", source.credentials().revealPassword());
    properties.setProperty("connectTimeout", "10");
    properties.setProperty("socketTimeout", "30");
    properties.setProperty("ApplicationName", "srl-walsender-fault");
    return DriverManager.getConnection(source.jdbcUrl(), properties);
  }
}
