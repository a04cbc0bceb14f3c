package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EmbeddedMariaDbIT {

  @Test
  void aServerKilledWithSigkillStartsAgainOnItsDataWithItsAccountsChecked() throws Exception {
    try (EmbeddedMariaDb crashed = EmbeddedMariaDb.start()) {
      try (Connection connection = crashed.connect();
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
        statement.execute("INSERT INTO kept VALUES (1)");
      }
      long killed = crashed.serverPid();

      crashed.kill(java.time.Duration.ofSeconds(10));
      assertThat(ProcessHandle.of(killed).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      long restarted = crashed.restart();

      assertThat(restarted).isNotEqualTo(killed).isEqualTo(crashed.serverPid());
      try (Connection connection = crashed.connect();
          Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM kept")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getInt(1)).as("the committed row survived the crash").isEqualTo(1);
      }
      // grant checks are on again: a wrong password is refused, the CDC account's grants show
      assertThatThrownBy(
              () ->
                  SourceJdbc.open(
                          crashed.jdbcUrl(),
                          io.reliabilitylab.spi.secret.Credentials.of(
                              crashed.cdcCredentials().user(), "not-the-password"))
                      .close())
          .isInstanceOf(SQLException.class);
      try (Connection cdc = SourceJdbc.open(crashed.jdbcUrl(), crashed.cdcCredentials());
          Statement statement = cdc.createStatement();
          ResultSet grants = statement.executeQuery("SHOW GRANTS")) {
        assertThat(grants.next()).isTrue();
      }
    }
  }

  @Test
  void startsWithTheCdcSettingsAndLeavesNothingBehindWhenClosed() throws Exception {
    EmbeddedMariaDb source = EmbeddedMariaDb.builder().database("lab_start").start();
    Path directory = source.directory();
    long pid = source.serverPid();
    Path marker = EmbeddedServers.labDirectory().resolve(pid + ".json");
    try {
      assertThat(source.kind()).isEqualTo("embedded-mariadb");
      assertThat(source.serverVersion()).startsWith(source.binaries().version());
      assertThat(source.jdbcUrl())
          .isEqualTo("jdbc:mysql://127.0.0.1:" + source.port() + "/lab_start")
          .doesNotContain(source.cdcCredentials().revealPassword());
      assertThat(source.toString()).doesNotContain(source.adminCredentials().revealPassword());
      assertThat(directory).isDirectory();
      assertThat(directory.getParent())
          .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
      assertThat(marker).exists();
      assertThat(EmbeddedServers.read(marker).ownerPid()).isEqualTo(ProcessHandle.current().pid());
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

      Map<String, String> variables = globalVariables(source);
      assertThat(variables)
          .containsEntry("log_bin", "ON")
          .containsEntry("binlog_format", "ROW")
          .containsEntry("binlog_row_image", "FULL")
          .containsEntry("server_id", "1")
          .containsEntry("bind_address", "127.0.0.1");
      try (Connection connection = source.connectAsCdcUser()) {
        assertThat(SourceJdbc.queryString(connection, "SELECT CURRENT_USER()"))
            .startsWith("lab_cdc@");
        assertThat(SourceJdbc.queryString(connection, "SELECT DATABASE()")).isEqualTo("lab_start");
      }
    } finally {
      source.close();
    }
    assertThat(source.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(directory).doesNotExist();
    assertThat(marker).doesNotExist();
    assertThatThrownBy(source::connect)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("was stopped");
    source.close();
  }

  @Test
  void runsTheInstalledMariaDbWhereThereIsOneAndTheBundledBuildOnRequest() throws Exception {
    Optional<MariaDbBinaries> installed = MariaDbBinaries.installedUnder(Path.of("/usr"));
    if (System.getenv("CI") != null) {
      // .ci/run installs Debian's mariadb-server so that the suites run a server that purges.
      assertThat(installed).as("mariadb-server is installed on CI").isPresent();
    }
    EmbeddedMariaDb shared = EmbeddedMariaDb.shared();
    if (installed.isPresent() && System.getenv(MariaDbBinaries.ENVIRONMENT_VARIABLE) == null) {
      assertThat(shared.binaries().isBundled()).isFalse();
      assertThat(shared.binaries().version()).isEqualTo(installed.get().version());
      assertThat(ProcessHandle.of(shared.serverPid()).flatMap(p -> p.info().command()))
          .contains(installed.get().location());
    }

    try (EmbeddedMariaDb bundled =
        EmbeddedMariaDb.builder().binaries(MariaDbBinaries.bundled()).start()) {
      assertThat(bundled.serverVersion()).startsWith(MariaDbBinaries.BUNDLED_VERSION + "-MariaDB");
      assertThat(ProcessHandle.of(bundled.serverPid()).flatMap(p -> p.info().command()))
          .hasValueSatisfying(command -> assertThat(command).startsWith(bundled.directory() + "/"));
      assertThat(globalVariables(bundled)).containsEntry("log_bin", "ON");
    }
  }

  @Test
  void aLaterStartStopsTheServerOfAJvmThatIsGone() throws Exception {
    EmbeddedMariaDb shared = EmbeddedMariaDb.shared();
    EmbeddedMariaDb orphan = EmbeddedMariaDb.builder().start();
    long orphanPid = orphan.serverPid();
    Path orphanMarker = EmbeddedServers.labDirectory().resolve(orphanPid + ".json");
    // Pretend the JVM that started it was killed: its marker now names an owner that is gone.
    EmbeddedServers.Marker marker = EmbeddedServers.read(orphanMarker);
    EmbeddedServers.write(
        new EmbeddedServers.Marker(
            deadPid(),
            marker.ownerStart(),
            marker.serverPid(),
            marker.serverStart(),
            marker.port(),
            marker.directory()));

    EmbeddedMariaDb next = EmbeddedMariaDb.builder().start();
    try {
      assertThat(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(orphan.directory()).doesNotExist();
      assertThat(orphanMarker).doesNotExist();
      assertThat(next.isRunning()).isTrue();
      // A server whose JVM is alive (this one's) is left alone.
      assertThat(shared.isRunning()).isTrue();
    } finally {
      next.close();
      orphan.close();
    }
  }

  @Test
  void cleansUpAfterAJvmKilledOutright() throws Exception {
    EmbeddedMariaDb.shared();
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EmbeddedMariaDbChild.class.getName())
            .redirectErrorStream(true)
            .start();
    long serverPid = -1;
    try (BufferedReader output =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        if (line.startsWith(EmbeddedMariaDbChild.READY)) {
          serverPid = Long.parseLong(line.substring(EmbeddedMariaDbChild.READY.length()).trim());
          break;
        }
      }
      assertThat(serverPid).as("the child JVM reported its server's pid").isPositive();
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    long killedServer = serverPid;
    Path marker = EmbeddedServers.labDirectory().resolve(killedServer + ".json");
    assertThat(marker).exists();
    Path directory = Path.of(EmbeddedServers.read(marker).directory());

    List<Long> stopped = EmbeddedMariaDb.cleanUpStaleServers();

    Optional<ProcessHandle> server = ProcessHandle.of(killedServer);
    assertThat(server.map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(marker).doesNotExist();
    assertThat(directory).doesNotExist();
    assertThat(stopped).allMatch(pid -> pid == killedServer);
    assertThat(EmbeddedMariaDb.shared().isRunning()).isTrue();
  }

  @Test
  void theSharedServerOutlivesCloseAndResetsBetweenScenarios() throws Exception {
    EmbeddedMariaDb shared = EmbeddedMariaDb.shared();
    assertThat(EmbeddedMariaDb.shared()).isSameAs(shared);
    try (Connection connection = shared.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE leftover (id INT PRIMARY KEY)");
      statement.execute("SET GLOBAL binlog_format = 'STATEMENT'");
    }
    shared.close();
    assertThat(shared.isRunning()).isTrue();

    shared.resetDatabase();

    try (Connection connection = shared.connect();
        Statement statement = connection.createStatement();
        ResultSet tables = statement.executeQuery("SHOW TABLES")) {
      assertThat(tables.next()).isFalse();
    }
    assertThat(globalVariables(shared)).containsEntry("binlog_format", "ROW");
  }

  static Map<String, String> globalVariables(SourceDatabase source) throws SQLException {
    Map<String, String> variables = new HashMap<>();
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SHOW GLOBAL VARIABLES")) {
      while (rows.next()) {
        variables.put(rows.getString(1).toLowerCase(java.util.Locale.ROOT), rows.getString(2));
      }
    }
    return variables;
  }

  /** A pid that no process has: beyond Linux's largest pid_max. */
  private static long deadPid() {
    long pid = 4_194_304L + 1;
    assertThat(ProcessHandle.of(pid)).isEmpty();
    return pid;
  }
}
