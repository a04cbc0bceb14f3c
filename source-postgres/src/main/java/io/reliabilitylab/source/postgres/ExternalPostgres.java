package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.JdbcUrls;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL server the user runs, reached by a JDBC URL. The lab never starts or stops it;
 * {@link #close()} does nothing. Passwords are given apart from the URL, registered with the {@link
 * Redactor}, and never appear in {@link #jdbcUrl()} or {@link #toString()}.
 *
 * <pre>{@code
 * PostgresSource source = ExternalPostgres.builder()
 *     .jdbcUrl("jdbc:postgresql://db.example.com:5432/lab")
 *     .admin("lab_admin", adminPassword)
 *     .cdc("lab_cdc", cdcPassword)   // optional: the admin role by default
 *     .build();
 * PostgresPrerequisites.verify(source, CaptureTarget.table("public", "orders"));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ExternalPostgres implements PostgresSource {

  /** The {@link #kind()} of an external server. */
  public static final String KIND = "external-postgres";

  private static final int DEFAULT_PORT = 5432;

  private final String kind;
  private final String jdbcUrl;
  private final JdbcUrls.Parts parts;
  private final Credentials admin;
  private final Credentials cdc;

  private ExternalPostgres(
      String kind, String jdbcUrl, JdbcUrls.Parts parts, Credentials admin, Credentials cdc) {
    this.kind = kind;
    this.jdbcUrl = jdbcUrl;
    this.parts = parts;
    this.admin = admin;
    this.cdc = cdc;
  }

  /** A server whose endpoint's role also owns the tables and writes the workload. */
  public static ExternalPostgres of(SourceEndpoint endpoint) {
    Credentials role = endpoint.credentials();
    return builder().jdbcUrl(endpoint.jdbcUrl()).admin(role.user(), role.revealPassword()).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String host() {
    return parts.host();
  }

  @Override
  public int port() {
    return parts.port();
  }

  @Override
  public String database() {
    return parts.database();
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl;
  }

  @Override
  public Credentials adminCredentials() {
    return admin;
  }

  @Override
  public Credentials cdcCredentials() {
    return cdc;
  }

  /** Does nothing: the lab did not start this server. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "ExternalPostgres[" + jdbcUrl + ", admin " + admin.user() + ", cdc " + cdc.user() + "]";
  }

  /** Settings for an external server. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private @Nullable String jdbcUrl;
    private @Nullable Credentials admin;
    private @Nullable Credentials cdc;
    private String kind = KIND;

    private Builder() {}

    /** {@code jdbc:postgresql://host[:port]/database[?parameters]}, without a password. */
    public Builder jdbcUrl(String jdbcUrl) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl").trim();
      return this;
    }

    /** The role that creates the tables and writes the workload. */
    public Builder admin(String user, String password) {
      this.admin = credentials("admin", user, password);
      return this;
    }

    /** The role the capture logs in as; the admin role if not given. */
    public Builder cdc(String user, String password) {
      this.cdc = credentials("capture", user, password);
      return this;
    }

    /** Another {@link PostgresSource#kind()}, for wrappers such as a container. */
    public Builder kind(String kind) {
      this.kind = Objects.requireNonNull(kind, "kind");
      return this;
    }

    /** The server; throws {@link IllegalArgumentException} saying what is wrong with the URL. */
    public ExternalPostgres build() {
      if (jdbcUrl == null) {
        throw new IllegalArgumentException(
            "No JDBC URL given: set one, e.g. jdbc:postgresql://127.0.0.1:5432/lab");
      }
      if (admin == null) {
        throw new IllegalArgumentException(
            "No admin role given for "
                + jdbcUrl
                + ": set the user and password that may create tables and write in the database");
      }
      JdbcUrls.Parts parts =
          JdbcUrls.parse(
              jdbcUrl,
              "postgresql",
              DEFAULT_PORT,
              ", e.g. jdbc:postgresql://db.example.com:5432/lab");
      return new ExternalPostgres(kind, jdbcUrl, parts, admin, cdc == null ? admin : cdc);
    }

    private static Credentials credentials(String role, String user, String password) {
      Objects.requireNonNull(user, role + " user");
      Objects.requireNonNull(password, role + " password");
      if (user.isBlank()) {
        throw new IllegalArgumentException(
            "The " + role + " role's name is blank: give the role's user name");
      }
      return Credentials.of(user, password);
    }
  }
}
