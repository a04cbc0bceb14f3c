package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Where a pipeline's source table is and the account its connector reads it with: what a pipeline
 * is started with ({@link PipelineConfig#source()}) and what a fault reaches the source database
 * through ({@link io.reliabilitylab.spi.fault.FaultContext#source()}), without parsing strings.
 * Everything but the password is shown by {@link #toString()}; the password stays in {@link
 * Credentials}.
 *
 * <pre>{@code
 * SourceEndpoint source = context.source().orElseThrow();
 * try (Connection connection = DriverManager.getConnection(
 *     source.jdbcUrl(), source.user(), source.credentials().revealPassword())) {
 *   ...
 * }
 * }</pre>
 *
 * @param jdbcUrl a JDBC URL for {@code database}, without credentials in it (safe to record)
 * @param host the host the database listens on
 * @param port its TCP port
 * @param database the database (schema) that holds the table
 * @param table the captured table
 * @param credentials the account the pipeline's connector reads the source with
 */
@API(status = EXPERIMENTAL)
public record SourceEndpoint(
    String jdbcUrl, String host, int port, String database, String table, Credentials credentials) {

  /** A query or semicolon parameter: {@code ?key=}, {@code &key=} or {@code ;key=}. */
  private static final Pattern PARAMETER = Pattern.compile("[?&;]([^=&;?#]+)=");

  public SourceEndpoint {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(credentials, "credentials");
    requireNoCredentials(jdbcUrl);
    if (host.isBlank() || database.isBlank() || table.isBlank()) {
      throw new IllegalArgumentException(
          "A source endpoint needs a host, a database and a table, got host '"
              + host
              + "', database '"
              + database
              + "', table '"
              + table
              + "'");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("The source port must be 1..65535, got " + port);
    }
  }

  /** The account's user name. */
  public String user() {
    return credentials.user();
  }

  /** The same database and account, another table in it. */
  public SourceEndpoint withTable(String otherTable) {
    return new SourceEndpoint(jdbcUrl, host, port, database, otherTable, credentials);
  }

  /**
   * The same source reached at another address, e.g. the lab's proxy in front of it ({@link
   * SourceNetworkLink}): a connector connects to {@code otherHost:otherPort}, while {@link
   * #jdbcUrl()} still names the server itself, for the lab's own sessions (its writer, its probes).
   */
  public SourceEndpoint through(String otherHost, int otherPort) {
    return new SourceEndpoint(jdbcUrl, otherHost, otherPort, database, table, credentials);
  }

  /** {@code host:port/database.table}: how descriptions and configurations name the source. */
  public String description() {
    return host + ":" + port + "/" + database + "." + table;
  }

  private static void requireNoCredentials(String jdbcUrl) {
    if (!jdbcUrl.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "The source JDBC URL must start with jdbc:, got '" + Redactor.redact(jdbcUrl) + "'");
    }
    if (holdsCredentials(jdbcUrl)) {
      throw credentialsInUrl(jdbcUrl);
    }
  }

  /**
   * Whether a URL carries an account: user info before the host, or a parameter whose name names a
   * secret ({@code password}, {@code trustCertificateKeyStorePassword}, …). An endpoint refuses
   * such a URL; a command line checks it up front with this.
   */
  public static boolean holdsCredentials(String jdbcUrl) {
    int authority = jdbcUrl.indexOf("://");
    if (authority >= 0) {
      int end = authority + 3;
      while (end < jdbcUrl.length() && "/?;#".indexOf(jdbcUrl.charAt(end)) < 0) {
        end++;
      }
      if (jdbcUrl.substring(authority + 3, end).contains("@")) {
        return true;
      }
    }
    Matcher parameter = PARAMETER.matcher(jdbcUrl);
    while (parameter.find()) {
      if (Redactor.isSecretKey(parameter.group(1))) {
        return true;
      }
    }
    return false;
  }

  private static IllegalArgumentException credentialsInUrl(String jdbcUrl) {
    return new IllegalArgumentException(
        "The source JDBC URL '"
            + Redactor.redact(jdbcUrl)
            + "' holds credentials: give the account as the endpoint's Credentials instead, so"
            + " that the URL can be recorded");
  }
}
