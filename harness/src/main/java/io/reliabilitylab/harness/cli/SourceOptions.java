package io.reliabilitylab.harness.cli;

import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.ExternalDatabase;
import io.reliabilitylab.source.mysql.MySqlContainerDatabase;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.secret.Redactor;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the source database comes from, shared by the commands that need one: an embedded MariaDB
 * by default, a MySQL 8 container, or a server the user runs.
 */
final class SourceOptions {

  @Spec(Spec.Target.MIXEE)
  private @Nullable CommandSpec mixee;

  @Option(
      names = "--source-jdbc-url",
      description =
          "An existing MySQL 8 / MariaDB to capture, e.g. jdbc:mysql://db:3306/lab; by default"
              + " the lab starts an embedded MariaDB.")
  private @Nullable String jdbcUrl;

  @Option(names = "--source-user", description = "User for --source-jdbc-url.")
  private @Nullable String user;

  @Option(
      names = "--source-password",
      arity = "0..1",
      interactive = true,
      description = "Password for --source-jdbc-url (asked for when given without a value).")
  private char @Nullable [] password;

  @Option(
      names = "--source-container",
      description = "Start a MySQL 8 container as the source (needs a Docker engine).")
  private boolean container;

  /** Opens the chosen source; the caller closes it. */
  SourceDatabase open() throws SQLException {
    if (container && jdbcUrl != null) {
      throw usage("--source-container and --source-jdbc-url exclude each other.");
    }
    if (jdbcUrl == null) {
      if (user != null || password != null) {
        throw usage("--source-user and --source-password need --source-jdbc-url.");
      }
      return container ? MySqlContainerDatabase.start() : EmbeddedMariaDb.start();
    }
    if (user == null) {
      throw usage("--source-jdbc-url needs --source-user.");
    }
    String secret = password == null ? "" : new String(password);
    Redactor.register(secret);
    return ExternalDatabase.of(jdbcUrl, user, secret);
  }

  private ParameterException usage(String message) {
    if (mixee == null) {
      throw new IllegalStateException(message);
    }
    return new ParameterException(mixee.commandLine(), message);
  }
}
