package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.process.LabProcess;
import io.reliabilitylab.process.LabProcesses;
import io.reliabilitylab.process.StopSignal;
import io.reliabilitylab.source.jdbc.ReplicationStart;
import io.reliabilitylab.source.jdbc.ReplicationStarts;
import io.reliabilitylab.source.jdbc.SourceServerProcess;
import io.reliabilitylab.spi.secret.Credentials;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server the lab starts for itself: {@code initdb} into a directory of its own under
 * {@code java.io.tmpdir}, then {@code postgres} on a free loopback port with logical decoding
 * ({@code wal_level=logical}, replication slots and WAL senders to spare), a database {@value
 * #DATABASE} owned by {@value #ADMIN_USER}, and a capture role {@value #CDC_USER} with {@code LOGIN
 * REPLICATION} and {@code SELECT} on the database's tables. Both passwords are random and
 * registered as secrets. As root (CI), the server runs as the unprivileged {@code postgres} user.
 *
 * <p>The server is one of the lab's processes: closed with the source, stopped by a shutdown hook
 * on exit, Ctrl-C or SIGTERM (PostgreSQL's fast shutdown, SIGINT), and killed, with its directory
 * deleted, by a later start when the JVM that started it was killed. As a throwaway lab server it
 * trades durability for speed ({@code fsync=off}); a killed server process loses nothing the
 * operating system already holds.
 *
 * <pre>{@code
 * try (EmbeddedPostgres source = EmbeddedPostgres.start()) {
 *   PostgresPrerequisites.verify(source, CaptureTarget.table("public", "orders"));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedPostgres
    implements SourceServerProcess, ReplicationStarts, PostgresSource {

  public static final String DATABASE = "lab";
  public static final String ADMIN_USER = "lab_admin";
  public static final String CDC_USER = "lab_cdc";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);
  private static final String HOST = "127.0.0.1";
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String LOG_FILE = "postgres.log";

  /** The settings every embedded server starts with; {@link Builder#setting} overrides them. */
  static final Map<String, String> DEFAULT_SETTINGS =
      orderedMap(
          "listen_addresses", HOST,
          "wal_level", "logical",
          "max_replication_slots", "10",
          "max_wal_senders", "10",
          // no fsync, but commits still flush their WAL: a walsender streams only flushed WAL, so
          // synchronous_commit=off would delay every change by up to wal_writer_delay
          "fsync", "off",
          "full_page_writes", "off");

  private final PostgresBinaries binaries;
  private final Path directory;
  private final int port;
  private final Map<String, String> settings;
  private final Credentials admin;
  private final Credentials cdc;
  // replaced when the server is killed and started again on the same data (source-crash)
  private volatile LabProcess server;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread shutdownHook;

  private EmbeddedPostgres(Started started, Credentials admin, Credentials cdc) {
    this.binaries = started.binaries();
    this.directory = started.directory();
    this.port = started.port();
    this.settings = started.settings();
    this.server = started.server();
    this.admin = admin;
    this.cdc = cdc;
    this.shutdownHook = new Thread(this::close, "srl-embedded-postgres-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** A server with the default settings. */
  public static EmbeddedPostgres start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Kills the servers of JVMs that are gone and deletes their directories; returns the directories
   * deleted. Every start calls it first.
   */
  public static List<Path> cleanUpStaleServers() {
    LabProcesses.cleanUpStale();
    return ServerDirectories.cleanUpStale();
  }

  /** What an embedded server starts with. */
  public static final class Builder {
    private final Map<String, String> settings = new LinkedHashMap<>(DEFAULT_SETTINGS);

    private Builder() {}

    /**
     * A server setting ({@code -c name=value}) instead of the default, e.g. {@code
     * setting("wal_level", "replica")} for a server that cannot be captured.
     */
    public Builder setting(String name, String value) {
      if (!name.matches("[a-z_.]+")) {
        throw new IllegalArgumentException("Not a PostgreSQL setting name: '" + name + "'");
      }
      settings.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Starts the server and creates the database and roles; throws with one line if it cannot. */
    public EmbeddedPostgres start() {
      cleanUpStaleServers();
      PostgresBinaries binaries = PostgresBinaries.find();
      ServerUser user = ServerUser.forThisProcess();
      Credentials admin = Credentials.of(ADMIN_USER, randomPassword());
      Credentials cdc = Credentials.of(CDC_USER, randomPassword());
      Path directory = null;
      LabProcess server = null;
      try {
        directory = ServerDirectories.create();
        initialise(binaries, user, directory, admin);
        int port = freePort();
        server = launch(binaries, user, directory, port, settings);
        Started started =
            new Started(
                binaries,
                directory,
                port,
                Collections.unmodifiableMap(new LinkedHashMap<>(settings)),
                server);
        awaitAccepting(started, admin);
        createDatabaseAndRoles(started, admin, cdc);
        LOG.info(
            "Embedded PostgreSQL {} on {}:{} (pid {}, {})",
            binaries.version(),
            HOST,
            port,
            server.pid(),
            user.switches() ? "as user " + user.name() : "as this JVM's user");
        return new EmbeddedPostgres(started, admin, cdc);
      } catch (IOException | SQLException | RuntimeException e) {
        abandon(server, directory);
        throw e instanceof IllegalStateException state
            ? state
            : new IllegalStateException(
                "The embedded PostgreSQL server did not start: " + oneLine(e), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        abandon(server, directory);
        throw new IllegalStateException("Interrupted while starting the embedded PostgreSQL", e);
      }
    }
  }

  /** Stops and deletes what a start that failed part way made. */
  private static void abandon(@Nullable LabProcess server, @Nullable Path directory) {
    if (server != null) {
      server.close();
    }
    if (directory != null) {
      ServerDirectories.deleteRecursively(directory);
    }
  }

  private record Started(
      PostgresBinaries binaries,
      Path directory,
      int port,
      Map<String, String> settings,
      LabProcess server) {

    String url(String database) {
      return "jdbc:postgresql://" + HOST + ":" + port + "/" + database;
    }
  }

  private static void initialise(
      PostgresBinaries binaries, ServerUser user, Path directory, Credentials admin)
      throws IOException, InterruptedException {
    Path passwordFile = directory.resolve("admin-password");
    Files.writeString(passwordFile, admin.revealPassword(), StandardCharsets.UTF_8);
    Files.createDirectories(directory.resolve("socket"));
    user.own(directory);
    Path log = directory.resolve("initdb.log");
    List<String> command =
        List.of(
            binaries.initdb().toString(),
            "--pgdata=" + directory.resolve("data"),
            "--username=" + ADMIN_USER,
            "--pwfile=" + passwordFile,
            "--auth=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync");
    Process initdb =
        new ProcessBuilder(user.command(command))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!initdb.waitFor(INITDB_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "initdb did not finish within " + INITDB_TIMEOUT + "; see " + log);
      }
      if (initdb.exitValue() != 0) {
        throw new IllegalStateException(
            "initdb failed with exit status "
                + initdb.exitValue()
                + ": "
                + lastLine(log)
                + " (see "
                + log
                + ")");
      }
    } finally {
      initdb.destroyForcibly();
      Files.deleteIfExists(passwordFile);
    }
  }

  private static LabProcess launch(
      PostgresBinaries binaries,
      ServerUser user,
      Path directory,
      int port,
      Map<String, String> settings)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(binaries.postgres().toString());
    command.add("-D");
    command.add(directory.resolve("data").toString());
    command.add("-p");
    command.add(Integer.toString(port));
    command.add("-k");
    command.add(directory.resolve("socket").toString());
    settings.forEach(
        (name, value) -> {
          command.add("-c");
          command.add(name + "=" + value);
        });
    return LabProcesses.start(
        "postgres-" + port,
        new ProcessBuilder(user.command(command)),
        directory.resolve(LOG_FILE),
        directory,
        StopSignal.INT);
  }

  /** Polls until the server accepts the admin's login; fails at once if it exits. */
  private static void awaitAccepting(Started started, Credentials admin)
      throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      if (!started.server().alive()) {
        throw new IllegalStateException(
            "postgres exited with status "
                + started.server().exitCode().orElse(-1)
                + " while starting: "
                + lastLine(started.server().log())
                + " (see "
                + started.server().log()
                + ")");
      }
      try (Connection ignored = PostgresSource.open(started.url("postgres"), admin)) {
        return;
      } catch (SQLException e) {
        last = e;
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException(
        "postgres did not accept connections within "
            + START_TIMEOUT
            + ": "
            + (last == null ? "no attempt" : last.getMessage())
            + " (see "
            + started.server().log()
            + ")");
  }

  private static void createDatabaseAndRoles(Started started, Credentials admin, Credentials cdc)
      throws SQLException {
    try (Connection connection = PostgresSource.open(started.url("postgres"), admin);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + DATABASE + " OWNER " + ADMIN_USER);
    }
    try (Connection connection = PostgresSource.open(started.url(DATABASE), admin);
        Statement statement = connection.createStatement()) {
      createCaptureRole(statement, cdc);
    }
  }

  /**
   * Creates the capture role, {@code LOGIN REPLICATION}, with {@code SELECT} on the tables the
   * connected role has and will create in schema {@code public}.
   */
  static void createCaptureRole(Statement statement, Credentials cdc) throws SQLException {
    String role = Identifiers.quote(cdc.user());
    // a random password of letters and digits (randomPassword): no quote to escape
    statement.execute(
        "CREATE ROLE " + role + " LOGIN REPLICATION PASSWORD '" + cdc.revealPassword() + "'");
    statement.execute("GRANT CONNECT ON DATABASE " + DATABASE + " TO " + role);
    statement.execute("GRANT USAGE ON SCHEMA public TO " + role);
    statement.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role);
    statement.execute(
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO " + role);
  }

  @Override
  public String kind() {
    return "embedded-postgres";
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
    return DATABASE;
  }

  @Override
  public Credentials adminCredentials() {
    return admin;
  }

  @Override
  public Credentials cdcCredentials() {
    return cdc;
  }

  /** The server's process id (the postmaster). */
  @Override
  public long serverPid() {
    return server.pid();
  }

  /**
   * Kills the postmaster with SIGKILL, as the OOM killer would; its backends exit when they notice
   * and the data directory stays for {@link #restart}.
   */
  @Override
  public synchronized void kill(Duration timeout) throws InterruptedException {
    LabProcess victim = server;
    victim.kill();
    if (victim.alive()) {
      throw new IllegalStateException(
          "The embedded PostgreSQL (pid " + victim.pid() + ") still runs after SIGKILL");
    }
  }

  /**
   * Starts the server again on the same data directory and port after {@link #kill}: it recovers
   * from its WAL. Retried while the killed server's backends still hold its shared memory.
   */
  @Override
  public synchronized long restart() {
    if (closed.get()) {
      throw new IllegalStateException("The embedded PostgreSQL on port " + port + " was closed");
    }
    if (server.alive()) {
      throw new IllegalStateException(
          "The embedded PostgreSQL on port " + port + " still runs (pid " + server.pid() + ")");
    }
    long started = System.nanoTime();
    long deadline = started + START_TIMEOUT.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() - deadline < 0) {
      LabProcess restarted = null;
      try {
        restarted = launch(binaries, ServerUser.forThisProcess(), directory, port, settings);
        awaitAccepting(new Started(binaries, directory, port, settings, restarted), admin);
        server = restarted;
        LOG.info(
            "Started embedded PostgreSQL on port {} again (pid {}) in {} ms",
            port,
            restarted.pid(),
            Duration.ofNanos(System.nanoTime() - started).toMillis());
        return restarted.pid();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(
            "Could not start the embedded PostgreSQL on port " + port + " again", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while restarting the embedded PostgreSQL", e);
      } catch (IllegalStateException e) {
        // e.g. "pre-existing shared memory block is still in use": the old backends are exiting
        last = e;
        if (restarted != null) {
          restarted.close();
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
    throw new IllegalStateException(
        "The embedded PostgreSQL on port " + port + " did not start again within " + START_TIMEOUT,
        last);
  }

  /** Where the server started each stream of {@code slot}, read from its log. */
  @Override
  public List<ReplicationStart> replicationStarts(String slot) throws IOException {
    return ReplicationStartLog.read(directory.resolve(LOG_FILE), slot);
  }

  /** The directory that holds the server's data, socket and log; deleted on close. */
  public Path directory() {
    return directory;
  }

  /** The binaries the server runs. */
  public PostgresBinaries binaries() {
    return binaries;
  }

  /** The settings the server started with ({@code -c name=value}). */
  public Map<String, String> settings() {
    return settings;
  }

  /** Whether the server process still runs. */
  public boolean isRunning() {
    return !closed.get() && server.alive();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.close();
    ServerDirectories.deleteRecursively(directory);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: this is the hook
    }
    LOG.info("Embedded PostgreSQL on port {} stopped", port);
  }

  @Override
  public String toString() {
    return "embedded PostgreSQL " + binaries.version() + " at " + jdbcUrl();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    }
  }

  /** 24 letters and digits. */
  static String randomPassword() {
    String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    StringBuilder password = new StringBuilder(24);
    for (int i = 0; i < 24; i++) {
      password.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return password.toString();
  }

  private static String lastLine(Path log) {
    try {
      List<String> lines =
          Files.readAllLines(log, StandardCharsets.UTF_8).stream()
              .filter(line -> !line.isBlank())
              .toList();
      return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).trim();
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return message.replace('\n', ' ');
  }

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }
}
