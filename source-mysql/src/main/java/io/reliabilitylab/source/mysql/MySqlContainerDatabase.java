package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A MySQL 8 server in a container, with the binlog settings CDC needs, for machines that run a
 * Docker engine. Where none runs, {@link #start()} refuses with one line saying so and naming the
 * alternatives; the embedded MariaDB needs no Docker.
 */
@API(status = EXPERIMENTAL)
public final class MySqlContainerDatabase implements SourceDatabase {

  /** The {@link #kind()} of a container database. */
  public static final String KIND = "mysql-container";

  /** The image, pinned so that runs are comparable. */
  public static final String IMAGE = "mysql:8.0.36";

  private final MySQLContainer<?> container;
  private final ExternalDatabase database;

  private MySqlContainerDatabase(MySQLContainer<?> container, ExternalDatabase database) {
    this.container = container;
    this.database = database;
  }

  /** Whether a Docker engine answers here. */
  public static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Starts MySQL 8 with ROW binlogs, a FULL row image and GTIDs, and a CDC account with the grants
   * Flink CDC and Debezium need.
   *
   * @throws IllegalStateException when no Docker engine runs here
   */
  @SuppressWarnings("resource") // closed by close()
  public static MySqlContainerDatabase start() throws SQLException {
    if (!dockerAvailable()) {
      throw new IllegalStateException(
          "No Docker engine answers on this machine, so the MySQL 8 container cannot start: use"
              + " the embedded MariaDB (the default) or --source-jdbc-url for a server you run");
    }
    String adminPassword = randomPassword();
    String cdcPassword = randomPassword();
    Redactor.register(adminPassword);
    Redactor.register(cdcPassword);
    MySQLContainer<?> container =
        new MySQLContainer<>(DockerImageName.parse(IMAGE))
            .withDatabaseName(EmbeddedMariaDb.DEFAULT_DATABASE)
            .withUsername("lab_admin")
            .withPassword(adminPassword)
            .withCommand(
                "--server-id=1",
                "--log-bin=mysql-bin",
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
                "--gtid-mode=ON",
                "--enforce-gtid-consistency=ON",
                "--default-time-zone=+00:00");
    container.start();
    try {
      ExternalDatabase admin =
          ExternalDatabase.builder()
              .kind(KIND)
              .jdbcUrl(
                  "jdbc:mysql://"
                      + container.getHost()
                      + ":"
                      + container.getMappedPort(MySQLContainer.MYSQL_PORT)
                      + "/"
                      + EmbeddedMariaDb.DEFAULT_DATABASE)
              .admin("root", adminPassword)
              .build();
      try (Connection connection = admin.connect();
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE USER 'lab_cdc'@'%' IDENTIFIED BY '" + cdcPassword + "'");
        statement.execute(
            "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT,"
                + " LOCK TABLES ON *.* TO 'lab_cdc'@'%'");
      }
      ExternalDatabase database =
          ExternalDatabase.builder()
              .kind(KIND)
              .jdbcUrl(admin.jdbcUrl())
              .admin("root", adminPassword)
              .cdc("lab_cdc", cdcPassword)
              .build();
      return new MySqlContainerDatabase(container, database);
    } catch (SQLException | RuntimeException e) {
      container.stop();
      throw e;
    }
  }

  private static String randomPassword() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String serverVersion() throws SQLException {
    return database.serverVersion();
  }

  @Override
  public String host() {
    return database.host();
  }

  @Override
  public int port() {
    return database.port();
  }

  @Override
  public String database() {
    return database.database();
  }

  @Override
  public String jdbcUrl() {
    return database.jdbcUrl();
  }

  @Override
  public Credentials cdcCredentials() {
    return database.cdcCredentials();
  }

  @Override
  public Connection connect() throws SQLException {
    return database.connect();
  }

  @Override
  public void close() {
    container.stop();
  }

  @Override
  public String toString() {
    return "MySqlContainerDatabase[" + IMAGE + " at " + jdbcUrl() + "]";
  }
}
