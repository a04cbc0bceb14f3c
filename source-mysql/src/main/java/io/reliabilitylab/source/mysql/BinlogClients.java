package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/** Who reads the source's binlog: a CDC connector streams once its binlog dump is connected. */
@API(status = INTERNAL)
public final class BinlogClients {

  private BinlogClients() {}

  /**
   * Whether the endpoint's account has a binlog dump connected to the server (a {@code Binlog Dump}
   * thread in the process list): a connector that has it streams changes as binlog events, its
   * snapshot done.
   */
  public static boolean dumpConnected(SourceEndpoint source) throws SQLException {
    return !dumpThreads(source).isEmpty();
  }

  /**
   * Whether a binlog dump connected that is not among {@code earlier}: the connection of a job
   * submitted after {@code earlier} was taken, not of one cancelled before it (on a cluster of
   * processes a cancelled job's binlog client may linger for a moment in its TaskManager).
   */
  public static boolean newDumpConnected(SourceEndpoint source, Set<Long> earlier)
      throws SQLException {
    Set<Long> now = dumpThreads(source);
    now.removeAll(earlier);
    return !now.isEmpty();
  }

  /** The server's thread ids of the endpoint account's binlog dumps now. */
  public static Set<Long> dumpThreads(SourceEndpoint source) throws SQLException {
    String user = source.user();
    try (Connection connection =
            DriverManager.getConnection(
                source.jdbcUrl(), user, source.credentials().revealPassword());
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT ID FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%' AND USER = ?")) {
      statement.setString(1, user);
      Set<Long> threads = new HashSet<>();
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          threads.add(result.getLong(1));
        }
      }
      return threads;
    }
  }

  /** The binlog file and position the server writes at now, or empty when the binlog is off. */
  static Optional<SourcePosition> currentPosition(SourceDatabase source) throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      // MySQL 8.4 renamed the statement; MariaDB and MySQL 8.0 know the old one.
      ResultSet rows;
      try {
        rows = statement.executeQuery("SHOW MASTER STATUS");
      } catch (SQLException e) {
        rows = statement.executeQuery("SHOW BINARY LOG STATUS");
      }
      try (ResultSet status = rows) {
        if (!status.next()) {
          return Optional.empty();
        }
        return Optional.of(SourcePosition.of(status.getString(1), status.getLong(2), 0));
      }
    }
  }
}
