package io.reliabilitylab.harness.cli;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.ExternalDatabase;
import io.reliabilitylab.source.mysql.MySqlContainerDatabase;
import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.ExternalPostgres;
import io.reliabilitylab.source.postgres.PostgresContainerSource;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.secret.Redactor;
import java.sql.SQLException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * Where the source database comes from, shared by the commands that need one: an embedded MariaDB
 * by default or an embedded PostgreSQL ({@code --source postgres}), a container of either, or a
 * server the user runs ({@link Existing}, which a command that needs an existing database, such as
 * {@code reconcile}, mixes in alone).
 */
final class SourceOptions {

  /** The database engines the lab captures. */
  enum Engine {
    MARIADB,
    POSTGRES
  }

  @Spec(Spec.Target.MIXEE)
  private @Nullable CommandSpec mixee;

  @Mixin private Existing existing = new Existing();

  @Option(
      names = "--source",
      paramLabel = "mariadb|postgres",
      converter = EngineConverter.class,
      description =
          "The source database the lab starts: mariadb (an embedded MariaDB, the default) or"
              + " postgres (an embedded PostgreSQL with logical decoding). With"
              + " --source-jdbc-url the URL decides.")
  private @Nullable Engine engine;

  @Option(
      names = "--source-container",
      description =
          "Start a container as the source, MySQL 8 or PostgreSQL 15 by --source (needs a Docker"
              + " engine). Without this or --source-jdbc-url the lab starts an embedded server.")
  private boolean container;

  /** Opens the chosen source; the caller closes it. */
  CdcSource open() throws SQLException {
    if (container && existing.jdbcUrl != null) {
      throw usage(mixee, "--source-container and --source-jdbc-url exclude each other.");
    }
    if (existing.jdbcUrl == null) {
      if (existing.user != null || existing.password != null) {
        throw usage(mixee, "--source-user and --source-password need --source-jdbc-url.");
      }
      if (engine == Engine.POSTGRES) {
        return container ? PostgresContainerSource.start() : EmbeddedPostgres.start();
      }
      return container ? MySqlContainerDatabase.start() : EmbeddedMariaDb.start();
    }
    if (engine != null && engine != existing.engine()) {
      throw usage(
          mixee,
          "--source "
              + engine.name().toLowerCase(Locale.ROOT)
              + " does not match --source-jdbc-url "
              + Redactor.redact(existing.jdbcUrl)
              + ": leave --source out, the URL names the engine.");
    }
    return existing.open(mixee);
  }

  /**
   * The engine the source will run, as {@link LabOptions#SOURCE_ENGINE} names it, known before it
   * starts: the URL's when one is given, else {@code --source}'s (MariaDB by default).
   */
  String engineOption() {
    Engine chosen = existing.jdbcUrl != null ? existing.engine() : engine;
    return chosen == Engine.POSTGRES ? LabOptions.POSTGRESQL : LabOptions.MYSQL;
  }

  /**
   * Whether the lab will run the source as a server process of its own that it can crash and
   * restart (the embedded MariaDB or PostgreSQL).
   */
  boolean runsServerProcess() {
    return existing.jdbcUrl == null && !container;
  }

  private static ParameterException usage(@Nullable CommandSpec command, String message) {
    if (command == null) {
      throw new IllegalStateException(message);
    }
    return new ParameterException(command.commandLine(), message);
  }

  /** {@code mariadb} (also {@code mysql}) or {@code postgres} (also {@code postgresql}). */
  static final class EngineConverter implements ITypeConverter<Engine> {
    @Override
    public Engine convert(String value) {
      return switch (value.strip().toLowerCase(Locale.ROOT)) {
        case "mariadb", "mysql" -> Engine.MARIADB;
        case "postgres", "postgresql" -> Engine.POSTGRES;
        default ->
            throw new TypeConversionException(
                "'" + value + "' is not a source the lab starts: use mariadb or postgres");
      };
    }
  }

  /** The options naming a MySQL 8 / MariaDB server the user runs and the account to log in with. */
  static final class Existing {

    @Option(
        names = "--source-jdbc-url",
        description =
            "An existing MySQL 8 / MariaDB or PostgreSQL, e.g. jdbc:mysql://db:3306/lab or"
                + " jdbc:postgresql://db:5432/lab (no password in it).")
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
     * The MySQL/MariaDB or PostgreSQL server the options name, for {@code command}; a usage error
     * unless a URL and a user are given or the URL is refused.
     */
    CdcSource open(@Nullable CommandSpec command) {
      return engine() == Engine.POSTGRES ? openPostgres(command) : openMySql(command);
    }

    /** The MySQL/MariaDB database the options name. */
    private ExternalDatabase openMySql(@Nullable CommandSpec command) {
      String secret = requireAccount(command);
      try {
        return ExternalDatabase.of(jdbcUrl, user, secret);
      } catch (IllegalArgumentException e) {
        throw usage(command, Errors.oneLine(e.getMessage()));
      }
    }

    /** The PostgreSQL server the options name; its user owns the tables and captures them. */
    ExternalPostgres openPostgres(@Nullable CommandSpec command) {
      String secret = requireAccount(command);
      try {
        return ExternalPostgres.builder().jdbcUrl(jdbcUrl).admin(user, secret).build();
      } catch (IllegalArgumentException e) {
        throw usage(command, Errors.oneLine(e.getMessage()));
      }
    }

    /** Which engine the URL names. */
    Engine engine() {
      return jdbcUrl != null && jdbcUrl.strip().startsWith("jdbc:postgresql:")
          ? Engine.POSTGRES
          : Engine.MARIADB;
    }

    private String requireAccount(@Nullable CommandSpec command) {
      if (jdbcUrl == null) {
        throw usage(command, "Missing --source-jdbc-url: name the database to read.");
      }
      if (user == null) {
        throw usage(command, "--source-jdbc-url needs --source-user.");
      }
      String secret = password == null ? "" : new String(password);
      Redactor.register(secret);
      return secret;
    }
  }
}
