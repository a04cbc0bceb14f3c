package io.reliabilitylab.harness.cli;

import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.ExternalDatabase;
import io.reliabilitylab.source.mysql.MySqlContainerDatabase;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.secret.Redactor;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where the source database comes from, shared by the commands that need one: an embedded MariaDB
 * by default, a MySQL 8 container, or a server the user runs ({@link Existing}, which a command
 * that needs an existing database, such as {@code reconcile}, mixes in alone).
 */
final class SourceOptions {

  @Spec(Spec.Target.MIXEE)
  private @Nullable CommandSpec mixee;

  @Mixin private Existing existing = new Existing();

  @Option(
      names = "--source-container",
      description =
          "Start a MySQL 8 container as the source (needs a Docker engine). Without this or"
              + " --source-jdbc-url the lab starts an embedded MariaDB.")
  private boolean container;

  /** Opens the chosen source; the caller closes it. */
  SourceDatabase open() throws SQLException {
    if (container && existing.jdbcUrl != null) {
      throw usage(mixee, "--source-container and --source-jdbc-url exclude each other.");
    }
    if (existing.jdbcUrl == null) {
      if (existing.user != null || existing.password != null) {
        throw usage(mixee, "--source-user and --source-password need --source-jdbc-url.");
      }
      return container ? MySqlContainerDatabase.start() : EmbeddedMariaDb.start();
    }
    return existing.open(mixee);
  }

  private static ParameterException usage(@Nullable CommandSpec command, String message) {
    if (command == null) {
      throw new IllegalStateException(message);
    }
    return new ParameterException(command.commandLine(), message);
  }

  /** The options naming a MySQL 8 / MariaDB server the user runs and the account to log in with. */
  static final class Existing {

    @Option(
        names = "--source-jdbc-url",
        description =
            "An existing MySQL 8 / MariaDB, e.g. jdbc:mysql://db:3306/lab (no password in it).")
    private @Nullable String jdbcUrl;

    @Option(names = "--source-user", description = "User for --source-jdbc-url.")
    private @Nullable String user;

    @Option(
        names = "--source-password",
        arity = "0..1",
        interactive = true,
        description = "Password for --source-jdbc-url (asked for when given without a value).")
    private char @Nullable [] password;

    /**
     * The database the options name, for {@code command}; a usage error unless a URL and a user are
     * given or the URL is refused.
     */
    ExternalDatabase open(@Nullable CommandSpec command) {
      if (jdbcUrl == null) {
        throw usage(command, "Missing --source-jdbc-url: name the database to read.");
      }
      if (user == null) {
        throw usage(command, "--source-jdbc-url needs --source-user.");
      }
      String secret = password == null ? "" : new String(password);
      Redactor.register(secret);
      try {
        return ExternalDatabase.of(jdbcUrl, user, secret);
      } catch (IllegalArgumentException e) {
        throw usage(command, Errors.oneLine(e.getMessage()));
      }
    }
  }
}
