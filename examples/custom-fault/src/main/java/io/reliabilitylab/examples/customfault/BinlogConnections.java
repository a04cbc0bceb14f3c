package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
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

  /** A server thread of the account: the id {@code KILL} takes, its client, its command. */
  record ServerThread(long id, String client, String command) {
    /** 'Binlog Dump' on MariaDB and MySQL, 'Binlog Dump GTID' on MySQL with GTIDs. */
    boolean dumpsBinlog() {
      return command.startsWith("Binlog Dump");
    }
  }

  /** The server's binlog end: the file and offset the next event is written at. */
  record BinlogPosition(String file, long offset) {
    @Override
    public String toString() {
      return file + ":" + offset;
    }
  }

  /**
   * Connections killed at a time; the server's binlog end right after, which the killed client
   * cannot have read past (empty when the account may not read it: it needs BINLOG MONITOR or
   * REPLICATION CLIENT).
   */
  record Kill(List<ServerThread> victims, Instant at, Optional<BinlogPosition> binlogEnd) {
    List<Long> ids() {
      return victims.stream().map(ServerThread::id).toList();
    }

    /** The ids as {@code KILL} took them, comma-separated. */
    String idText() {
      return String.join(",", ids().stream().map(String::valueOf).toList());
    }
  }

  private final SourceEndpoint endpoint;

  BinlogConnections(SourceEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** The account's binlog dump threads, lowest id first. */
  List<ServerThread> dumpThreads() throws SQLException {
    return threads().stream().filter(ServerThread::dumpsBinlog).toList();
  }

  /** Whether one of {@code ids} is still listed (a killed thread may linger briefly). */
  boolean anyListed(List<Long> ids) throws SQLException {
    return threads().stream().anyMatch(thread -> ids.contains(thread.id()));
  }

  /** Kills the connections, then reads the binlog end in the same session. */
  Kill kill(List<ServerThread> victims, Clock clock) throws SQLException {
    try (Connection connection = open();
        Statement statement = connection.createStatement()) {
      for (ServerThread victim : victims) {
        statement.execute("KILL CONNECTION " + victim.id()); // an id, not text: nothing to quote
      }
      Instant killedAt = clock.instant();
      // MySQL 8.4 renamed the statement; MariaDB and older MySQL know only the first name
      for (String sql : List.of("SHOW MASTER STATUS", "SHOW BINARY LOG STATUS")) {
        try (ResultSet rows = statement.executeQuery(sql)) {
          return new Kill(
              victims,
              killedAt,
              rows.next()
                  ? Optional.of(new BinlogPosition(rows.getString(1), rows.getLong(2)))
                  : Optional.empty());
        } catch (SQLException notHere) {
          // try the other name
        }
      }
      return new Kill(victims, killedAt, Optional.empty());
    }
  }

  /** The account's threads in {@code information_schema.PROCESSLIST}, lowest id first. */
  private List<ServerThread> threads() throws SQLException {
    try (Connection connection = open();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT ID, HOST, COMMAND FROM information_schema.PROCESSLIST"
                    + " WHERE USER = ? ORDER BY ID")) {
      query.setString(1, endpoint.user());
      List<ServerThread> threads = new ArrayList<>();
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          threads.add(
              new ServerThread(
                  rows.getLong(1),
                  String.valueOf(rows.getString(2)),
                  String.valueOf(rows.getString(3))));
        }
      }
      return threads;
    }
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
