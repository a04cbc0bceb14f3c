package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.spi.fault.FaultSpec;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where the source database is and the account to reach it with. The URL and the user come from the
 * fault's parameters or the pipeline's effective configuration; the password only from the
 * environment, since a fault spec is recorded and replayed.
 *
 * @param jdbcUrl the source's JDBC URL, without credentials
 * @param user the account the fault connects as
 * @param password its password; never shown by {@link #toString()}
 */
record SourceEndpoint(String jdbcUrl, String user, String password) {

  /** {@code host:port/database} or {@code host:port/database.table}, as a pipeline reports it. */
  private static final Pattern SOURCE_DESCRIPTION =
      Pattern.compile("([^\\s:/]+):(\\d{1,5})/([A-Za-z0-9_$]+)(?:\\.[A-Za-z0-9_$]+)?");

  /** Resolves the endpoint; the message of a missing piece says which setting supplies it. */
  static SourceEndpoint resolve(
      FaultSpec spec,
      String pipeline,
      Map<String, String> configuration,
      Function<String, @Nullable String> environment,
      Function<String, @Nullable String> systemProperties) {
    for (String key : spec.parameters().keySet()) {
      if (key.toLowerCase(Locale.ROOT).contains("password")) {
        throw new IllegalArgumentException(
            "Fault '"
                + spec.fault()
                + "' does not take a password parameter ('"
                + key
                + "'): a fault spec is written into the run record. Set the environment variable "
                + SourceConnectionLossInjector.PASSWORD_ENVIRONMENT_VARIABLE
                + " (or the system property "
                + SourceConnectionLossInjector.PASSWORD_SYSTEM_PROPERTY
                + ") instead");
      }
    }
    String jdbcUrl = jdbcUrl(spec, pipeline, configuration);
    String user = spec.parameters().get(SourceConnectionLossInjector.USER);
    if (user == null) {
      user = configuration.get("source.user");
    }
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException(
          "Fault '"
              + spec.fault()
              + "' needs the account the CDC connector reads the binlog with: pipeline '"
              + pipeline
              + "' reports no 'source.user' in its effective configuration, so set the fault"
              + " parameter '"
              + SourceConnectionLossInjector.USER
              + "'");
    }
    // a system property, set on purpose for this JVM, wins over the environment
    String password = systemProperties.apply(SourceConnectionLossInjector.PASSWORD_SYSTEM_PROPERTY);
    if (password == null) {
      password = environment.apply(SourceConnectionLossInjector.PASSWORD_ENVIRONMENT_VARIABLE);
    }
    if (password == null) {
      throw new IllegalArgumentException(
          "Fault '"
              + spec.fault()
              + "' needs the password of '"
              + user
              + "' to reach the source: set the system property "
              + SourceConnectionLossInjector.PASSWORD_SYSTEM_PROPERTY
              + " or the environment variable "
              + SourceConnectionLossInjector.PASSWORD_ENVIRONMENT_VARIABLE);
    }
    return new SourceEndpoint(jdbcUrl, user, password);
  }

  private static String jdbcUrl(
      FaultSpec spec, String pipeline, Map<String, String> configuration) {
    String given = spec.parameters().get(SourceConnectionLossInjector.JDBC_URL);
    if (given == null) {
      given = configuration.get("source.jdbc-url");
    }
    if (given != null) {
      if (!given.startsWith("jdbc:mysql://") && !given.startsWith("jdbc:mariadb://")) {
        throw new IllegalArgumentException(
            "Fault '"
                + spec.fault()
                + "' reaches MySQL or MariaDB only: '"
                + SourceConnectionLossInjector.JDBC_URL
                + "' must start with jdbc:mysql:// or jdbc:mariadb://, got '"
                + withoutQuery(given)
                + "'");
      }
      if (withoutQuery(given).contains("@")
          || given.toLowerCase(Locale.ROOT).contains("password")) {
        throw new IllegalArgumentException(
            "Fault '"
                + spec.fault()
                + "': the JDBC URL must not carry credentials, as it is recorded; give the user with"
                + " the parameter '"
                + SourceConnectionLossInjector.USER
                + "' and the password with "
                + SourceConnectionLossInjector.PASSWORD_ENVIRONMENT_VARIABLE);
      }
      return given;
    }
    String description = configuration.get("source");
    Matcher matcher = description == null ? null : SOURCE_DESCRIPTION.matcher(description);
    if (matcher == null || !matcher.matches()) {
      throw new IllegalArgumentException(
          "Fault '"
              + spec.fault()
              + "' needs the source database's address: pipeline '"
              + pipeline
              + "' reports neither 'source.jdbc-url' nor 'source' (host:port/database) in its"
              + " effective configuration, so set the fault parameter '"
              + SourceConnectionLossInjector.JDBC_URL
              + "', e.g. jdbc:mysql://db.example.com:3306/shop");
    }
    return "jdbc:mysql://" + matcher.group(1) + ":" + matcher.group(2) + "/" + matcher.group(3);
  }

  /** The URL without its query, which may hold driver settings: what the evidence shows. */
  String address() {
    return withoutQuery(jdbcUrl);
  }

  private static String withoutQuery(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  @Override
  public String toString() {
    return "SourceEndpoint[" + address() + ", user=" + user + ", password=***]";
  }
}
