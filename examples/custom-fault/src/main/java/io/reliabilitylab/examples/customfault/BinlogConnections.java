package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The binlog connections a replication client (a CDC connector) holds on a MySQL or MariaDB server,
 * seen and killed through plain JDBC. An account sees and may kill its own connections without any
 * extra privilege, so the CDC account itself suffices.
 */
final class BinlogConnections {

  private final SourceEndpoint endpoint;

  BinlogConnections(SourceEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /**
   * One server thread streaming the binlog to a client.
   *
   * @param id the connection id that {@code KILL} takes
   * @param user the account
   * @param host the client's address, {@code host:port}
   * @param connectedSeconds how long the thread has been in its current command
   * @param state what the thread is doing, e.g. waiting for more updates
   */
  record DumpThread(long id, String user, String host, long connectedSeconds, String state) {}

  /**
   * The server's binlog end: the file and offset the next event is written at.
   *
   * @param file the binlog file
   * @param position the offset in it
   */
  record BinlogPosition(String file, long position) {
    @Override
    public String toString() {
      return file + ":" + position;
    }
  }

  /** The binlog dump threads of the endpoint's account, lowest id first. */
  List<DumpThread> dumpThreads() throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement(
                // 'Binlog Dump' on MariaDB and MySQL, 'Binlog Dump GTID' on MySQL with GTIDs
                "SELECT ID, USER, HOST, TIME, STATE FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%' AND USER = ? ORDER BY ID")) {
      query.setString(1, endpoint.user());
      List<DumpThread> threads = new ArrayList<>();
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          threads.add(
              new DumpThread(
                  rows.getLong("ID"),
                  rows.getString("USER"),
                  String.valueOf(rows.getString("HOST")),
                  rows.getLong("TIME"),
                  String.valueOf(rows.getString("STATE"))));
        }
      }
      return threads;
    }
  }

  /** Whether a connection id is still in the process list (a killed thread may linger briefly). */
  boolean present(long id) throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?")) {
      query.setLong(1, id);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next() && rows.getLong(1) > 0;
      }
    }
  }

  /**
   * The binlog end read right before and right after a kill: the killed client cannot have read
   * past {@code after}.
   *
   * @param before the server's binlog end just before the kill, if readable
   * @param after the server's binlog end just after it, if readable
   */
  record Kill(Optional<BinlogPosition> before, Optional<BinlogPosition> after) {}

  /** Kills connections, reading the binlog end right before and after, in one session. */
  Kill kill(List<Long> ids) throws SQLException {
    try (Connection connection = open();
        Statement statement = connection.createStatement()) {
      Optional<BinlogPosition> before = binlogPosition(statement);
      for (long id : ids) {
        // an id, not text: nothing to quote
        statement.execute("KILL CONNECTION " + id);
      }
      return new Kill(before, binlogPosition(statement));
    }
  }

  /** The binlog end, if the account may read it (BINLOG MONITOR or REPLICATION CLIENT). */
  private static Optional<BinlogPosition> binlogPosition(Statement statement) {
    // MySQL 8.4 renamed the statement; MariaDB and older MySQL know only the first name
    for (String sql : List.of("SHOW MASTER STATUS", "SHOW BINARY LOG STATUS")) {
      try (ResultSet rows = statement.executeQuery(sql)) {
        if (rows.next()) {
          return Optional.of(new BinlogPosition(rows.getString(1), rows.getLong(2)));
        }
        return Optional.empty();
      } catch (SQLException notHere) {
        // try the other name
      }
    }
    return Optional.empty();
  }

  private Connection open() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", endpoint.user());
    properties.setProperty("password", endpoint.credentials().revealPassword());
    properties.setProperty("connectTimeout", "10000");
    properties.setProperty("socketTimeout", "30000");
    properties.setProperty("allowPublicKeyRetrieval", "true");
    return DriverManager.getConnection(endpoint.jdbcUrl(), properties);
  }
}
