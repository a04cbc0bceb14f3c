package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
    String user = source.user();
    try (Connection connection =
            DriverManager.getConnection(
                source.jdbcUrl(), user, source.credentials().revealPassword());
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%' AND USER = ?")) {
      statement.setString(1, user);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() && result.getLong(1) > 0;
      }
    }
  }
}
