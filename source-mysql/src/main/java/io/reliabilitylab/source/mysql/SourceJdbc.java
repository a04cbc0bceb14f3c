package io.reliabilitylab.source.mysql;

import io.reliabilitylab.spi.secret.Credentials;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/** How the lab opens JDBC connections to a source: one place for the settings every one needs. */
final class SourceJdbc {

  /** Alphanumeric only, so that a generated password needs no quoting in SQL, URLs or shells. */
  private static final String PASSWORD_ALPHABET =
      "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

  private static final SecureRandom RANDOM = new SecureRandom();

  private SourceJdbc() {}

  /**
   * Opens a connection with the session time zone {@code +00:00}. The driver's own zone is UTC as
   * well, so that it converts no timestamp between the JVM's default zone and the session's.
   */
  static Connection open(String jdbcUrl, Credentials credentials) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", credentials.user());
    properties.setProperty("password", credentials.revealPassword());
    properties.setProperty("connectionTimeZone", "UTC");
    // MySQL 8 accounts with caching_sha2_password need the key over a connection without TLS.
    properties.setProperty("allowPublicKeyRetrieval", "true");
    properties.setProperty("rewriteBatchedStatements", "true");
    properties.setProperty("connectTimeout", "15000");
    Connection connection = DriverManager.getConnection(jdbcUrl, properties);
    try (Statement statement = connection.createStatement()) {
      // Explicit rather than a driver property, which a user's URL could override.
      statement.execute("SET time_zone = '+00:00'");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  /** A random password of {@code length} letters and digits. */
  static String randomPassword(int length) {
    StringBuilder password = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      password.append(PASSWORD_ALPHABET.charAt(RANDOM.nextInt(PASSWORD_ALPHABET.length())));
    }
    return password.toString();
  }

  /** A backtick-quoted identifier, for names the lab does not control. */
  /** Closes a JDBC resource whose failure to close changes nothing: a read is over or failing. */
  static void closeQuietly(@Nullable AutoCloseable resource) {
    if (resource != null) {
      try {
        resource.close();
      } catch (Exception e) {
        // The resource is discarded either way.
      }
    }
  }

  static String quoteIdentifier(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** A single-quoted SQL string literal. */
  static String quoteLiteral(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  /** The first column of the first row of a query, as text. */
  static String queryString(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      if (!result.next()) {
        throw new SQLException("The query returned no row: " + sql);
      }
      return String.valueOf(result.getString(1));
    }
  }
}
