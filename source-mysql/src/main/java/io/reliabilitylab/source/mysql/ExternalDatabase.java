package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.JdbcUrls;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A MySQL 8 or MariaDB server the user runs, reached by a JDBC URL. The lab never starts or stops
 * it; {@link #close()} does nothing. Passwords are given apart from the URL, registered with the
 * {@link Redactor}, and never appear in {@link #jdbcUrl()} or {@link #toString()}.
 *
 * <pre>{@code
 * SourceDatabase source = ExternalDatabase.builder()
 *     .jdbcUrl("jdbc:mysql://db.example.com:3306/lab")
 *     .admin("lab_admin", adminPassword)
 *     .cdc("lab_cdc", cdcPassword)   // optional: the admin account by default
 *     .build();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ExternalDatabase implements SourceDatabase {

  /** The {@link #kind()} of an external database. */
  public static final String KIND = "external";

  private static final int DEFAULT_PORT = 3306;

  private final String kind;
  private final String jdbcUrl;
  private final String host;
  private final int port;
  private final String database;
  private final Credentials admin;
  private final Credentials cdc;

  private ExternalDatabase(
      String kind,
      String jdbcUrl,
      String host,
      int port,
      String database,
      Credentials admin,
      Credentials cdc) {
    this.kind = kind;
    this.jdbcUrl = jdbcUrl;
    this.host = host;
    this.port = port;
    this.database = database;
    this.admin = admin;
    this.cdc = cdc;
  }

  /** A database whose admin account also serves the CDC connector. */
  public static ExternalDatabase of(String jdbcUrl, String user, String password) {
    return builder().jdbcUrl(jdbcUrl).admin(user, password).build();
  }

  /** The database an endpoint names, its account serving as admin and CDC account both. */
  public static ExternalDatabase of(SourceEndpoint endpoint) {
    Credentials account = endpoint.credentials();
    return of(endpoint.jdbcUrl(), account.user(), account.revealPassword());
  }

  /** A builder for a database with a separate CDC account. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String serverVersion() throws SQLException {
    try (Connection connection = connect()) {
      return SourceJdbc.queryString(connection, "SELECT VERSION()");
    }
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String database() {
    return database;
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl;
  }

  @Override
  public Credentials cdcCredentials() {
    return cdc;
  }

  /** The account that {@link #connect()} uses to create tables and write the workload. */
  public Credentials adminCredentials() {
    return admin;
  }

  @Override
  public Connection connect() throws SQLException {
    return SourceJdbc.open(jdbcUrl, admin);
  }

  /** Does nothing: the lab did not start this database. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "ExternalDatabase[" + jdbcUrl + ", admin " + admin.user() + ", cdc " + cdc.user() + "]";
  }

  /**
   * Settings for an external database.
   *
   * <pre>{@code
   * ExternalDatabase.builder()
   *     .jdbcUrl("jdbc:mysql://127.0.0.1:3306/lab?useSSL=false")
   *     .admin("root", rootPassword)
   *     .build();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private @Nullable String jdbcUrl;
    private @Nullable Credentials admin;
    private @Nullable Credentials cdc;
    private String kind = KIND;

    private Builder() {}

    /**
     * {@code jdbc:mysql://host[:port]/database[?parameters]}, without a password: give passwords
     * through {@link #admin} and {@link #cdc}.
     */
    public Builder jdbcUrl(String jdbcUrl) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl").trim();
      return this;
    }

    /** The account that creates the tables and writes the workload. */
    public Builder admin(String user, String password) {
      this.admin = credentials("admin", user, password);
      return this;
    }

    /** The account the CDC connector reads the binlog with; the admin account if not given. */
    public Builder cdc(String user, String password) {
      this.cdc = credentials("CDC", user, password);
      return this;
    }

    /** Another {@link SourceDatabase#kind()}, for wrappers such as a container database. */
    public Builder kind(String kind) {
      this.kind = Objects.requireNonNull(kind, "kind");
      return this;
    }

    /** The database; throws {@link IllegalArgumentException} saying what is wrong with the URL. */
    public ExternalDatabase build() {
      if (jdbcUrl == null) {
        throw new IllegalArgumentException(
            "No JDBC URL given: set one, e.g. jdbc:mysql://127.0.0.1:3306/lab");
      }
      if (admin == null) {
        throw new IllegalArgumentException(
            "No admin account given for "
                + jdbcUrl
                + ": set the user and password that may"
                + " create tables and write in the database");
      }
      String url = jdbcUrl;
      JdbcUrls.Parts parts =
          JdbcUrls.parse(
              url,
              "mysql",
              DEFAULT_PORT,
              ": the lab connects to MySQL 8 and MariaDB with MySQL Connector/J, e.g."
                  + " jdbc:mysql://db.example.com:3306/lab (also for MariaDB)");
      Credentials adminAccount = admin;
      Credentials cdcAccount = cdc == null ? adminAccount : cdc;
      return new ExternalDatabase(
          kind, url, parts.host(), parts.port(), parts.database(), adminAccount, cdcAccount);
    }

    private static Credentials credentials(String role, String user, String password) {
      Objects.requireNonNull(user, role + " user");
      Objects.requireNonNull(password, role + " password");
      if (user.isBlank()) {
        throw new IllegalArgumentException(
            "The " + role + " user name is blank: give the account's user name");
      }
      return Credentials.of(user, password);
    }
  }
}
