package io.reliabilitylab.runner.phase;

import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.data.SourcePosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/** Reads where the source's binlog is now, for diagnostics and the run record. */
final class SourcePositions {

  private SourcePositions() {}

  /** The binlog file and position now, or empty when the binlog is off. */
  static Optional<SourcePosition> current(SourceDatabase source) throws SQLException {
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
