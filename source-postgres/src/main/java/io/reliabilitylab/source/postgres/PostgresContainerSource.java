package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A PostgreSQL server in a container, with logical decoding on and a capture role, for machines
 * that run a Docker engine. Where none runs, {@link #start()} refuses with one line naming the
 * alternatives; the embedded server needs no Docker.
 */
@API(status = EXPERIMENTAL)
public final class PostgresContainerSource implements PostgresSource {

  /** The {@link #kind()} of a container source. */
  public static final String KIND = "postgres-container";

  /** The image, pinned so that runs are comparable; the major version Debian 12 ships. */
  public static final String IMAGE = "postgres:15.8";

  private final PostgreSQLContainer<?> container;
  private final ExternalPostgres server;

  private PostgresContainerSource(PostgreSQLContainer<?> container, ExternalPostgres server) {
    this.container = container;
    this.server = server;
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
   * Starts the server with {@code wal_level=logical} and slots and WAL senders to spare, and a
   * capture role {@value EmbeddedPostgres#CDC_USER} with {@code LOGIN REPLICATION} and {@code
   * SELECT} on the database's tables.
   *
   * @throws IllegalStateException when no Docker engine runs here
   */
  @SuppressWarnings("resource") // closed by close()
  public static PostgresContainerSource start() throws SQLException {
    if (!dockerAvailable()) {
      throw new IllegalStateException(
          "No Docker engine answers on this machine, so the PostgreSQL container cannot start:"
              + " use the embedded PostgreSQL (Debian's server, apt-get install postgresql) or a"
              + " server you run by its JDBC URL");
    }
    Credentials admin =
        Credentials.of(EmbeddedPostgres.ADMIN_USER, EmbeddedPostgres.randomPassword());
    Credentials cdc = Credentials.of(EmbeddedPostgres.CDC_USER, EmbeddedPostgres.randomPassword());
    PostgreSQLContainer<?> container =
        new PostgreSQLContainer<>(DockerImageName.parse(IMAGE))
            .withDatabaseName(EmbeddedPostgres.DATABASE)
            .withUsername(admin.user())
            .withPassword(admin.revealPassword())
            .withCommand(
                "postgres",
                "-c",
                "wal_level=logical",
                "-c",
                "max_replication_slots=10",
                "-c",
                "max_wal_senders=10",
                "-c",
                "fsync=off");
    container.start();
    try {
      ExternalPostgres server =
          ExternalPostgres.builder()
              .kind(KIND)
              .jdbcUrl(
                  "jdbc:postgresql://"
                      + container.getHost()
                      + ":"
                      + container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT)
                      + "/"
                      + EmbeddedPostgres.DATABASE)
              .admin(admin.user(), admin.revealPassword())
              .cdc(cdc.user(), cdc.revealPassword())
              .build();
      try (Connection connection = server.connect();
          Statement statement = connection.createStatement()) {
        EmbeddedPostgres.createCaptureRole(statement, cdc);
      }
      return new PostgresContainerSource(container, server);
    } catch (SQLException | RuntimeException e) {
      container.stop();
      throw e;
    }
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String host() {
    return server.host();
  }

  @Override
  public int port() {
    return server.port();
  }

  @Override
  public String database() {
    return server.database();
  }

  @Override
  public Credentials adminCredentials() {
    return server.adminCredentials();
  }

  @Override
  public Credentials cdcCredentials() {
    return server.cdcCredentials();
  }

  @Override
  public void close() {
    container.stop();
  }

  @Override
  public String toString() {
    return "PostgresContainerSource[" + IMAGE + " at " + jdbcUrl() + "]";
  }
}
