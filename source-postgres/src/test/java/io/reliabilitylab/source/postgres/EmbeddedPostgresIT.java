package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded server as a capture sees it: logical decoding on, a capture role that can create a
 * {@code pgoutput} slot and read a committed change through it, a prerequisite check that passes
 * here and names the fix on a server without logical WAL, and no server or directory left behind,
 * whether the lab closes it or is killed.
 */
class EmbeddedPostgresIT {

  private static final CaptureTarget ORDERS =
      CaptureTarget.table("public", "orders").withPublication("lab_orders");

  private static EmbeddedPostgres source;

  @BeforeAll
  static void start() {
    source = startOrSkip();
  }

  /** An embedded server; CI installs Debian's (.ci/run), elsewhere a machine without one skips. */
  static EmbeddedPostgres startOrSkip() {
    if (System.getenv("CI") == null) {
      try {
        PostgresBinaries.find();
      } catch (IllegalStateException e) {
        Assumptions.abort(e.getMessage());
      }
    }
    return EmbeddedPostgres.start();
  }

  @AfterAll
  static void stop() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void theCaptureRoleStreamsACommittedChangeThroughAPgoutputSlot() throws Exception {
    try (Connection admin = source.connect();
        Statement statement = admin.createStatement()) {
      statement.execute(
          "CREATE TABLE orders (order_id bigint PRIMARY KEY, status text NOT NULL, amount"
              + " numeric(12,2))");
      statement.execute("ALTER TABLE orders REPLICA IDENTITY FULL");
      statement.execute("CREATE PUBLICATION lab_orders FOR TABLE orders");
    }
    PostgresReadiness readiness = PostgresPrerequisites.verify(source, ORDERS);
    assertThat(readiness.summary())
        .contains("wal_level=logical")
        .contains("role lab_cdc (REPLICATION)")
        .contains("public.orders readable")
        .contains("publication lab_orders CARRIES_TABLE");

    try (Connection cdc = source.connectAsCdcUser();
        Statement statement = cdc.createStatement()) {
      statement.execute("SELECT pg_create_logical_replication_slot('lab_it', 'pgoutput')");
      try (Connection admin = source.connect();
          Statement write = admin.createStatement()) {
        write.execute("INSERT INTO orders VALUES (1, 'NEW', 10.50)");
      }
      List<Character> messages = new ArrayList<>();
      try (ResultSet changes =
          statement.executeQuery(
              "SELECT data FROM pg_logical_slot_get_binary_changes('lab_it', NULL, NULL,"
                  + " 'proto_version', '1', 'publication_names', 'lab_orders')")) {
        while (changes.next()) {
          messages.add((char) changes.getBytes(1)[0]);
        }
      }
      // pgoutput: Begin, Relation, Insert, Commit
      assertThat(messages).containsSubsequence('B', 'I', 'C');
      statement.execute("SELECT pg_drop_replication_slot('lab_it')");
    }
    assertThat(source.serverVersion()).matches("\\d+\\.\\d+.*");
    assertThat(source.jdbcUrl()).doesNotContain(source.cdcCredentials().revealPassword());
  }

  @Test
  void aServerWithoutLogicalWalIsRefusedInOneLineThatNamesTheFix() {
    try (EmbeddedPostgres replica =
        EmbeddedPostgres.builder().setting("wal_level", "replica").start()) {
      assertThatThrownBy(
              () -> PostgresPrerequisites.verify(replica, CaptureTarget.table("public", "orders")))
          .isInstanceOf(PostgresNotReadyException.class)
          .hasMessageContaining("wal_level is 'replica'")
          .hasMessageContaining("ALTER SYSTEM SET wal_level = logical;")
          .hasMessageNotContaining("\n");
    }
  }

  @Test
  void anExternalServerByUrlIsCheckedAsItsCaptureRoleAndAWrongPasswordIsOneLine() {
    PostgresSource external =
        ExternalPostgres.builder()
            .jdbcUrl(source.jdbcUrl())
            .admin(source.adminCredentials().user(), source.adminCredentials().revealPassword())
            .cdc(source.cdcCredentials().user(), source.cdcCredentials().revealPassword())
            .build();
    assertThat(
            PostgresPrerequisites.verify(external, CaptureTarget.table("public", "absent")).ready())
        .isTrue();

    PostgresSource wrong =
        ExternalPostgres.builder()
            .jdbcUrl(source.jdbcUrl())
            .admin(source.adminCredentials().user(), "not-the-password")
            .build();
    assertThatThrownBy(
            () -> PostgresPrerequisites.verify(wrong, CaptureTarget.table("public", "t")))
        .isInstanceOf(PostgresNotReadyException.class)
        .hasMessageContaining("cannot log in to " + source.jdbcUrl())
        .hasMessageContaining("pg_hba.conf")
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining("not-the-password");
  }

  @Test
  void aServerKilledWithSigkillStartsAgainOnItsDataAndPort() throws Exception {
    try (EmbeddedPostgres crashed = EmbeddedPostgres.start()) {
      try (Connection connection = crashed.connect();
          java.sql.Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE kept (id int PRIMARY KEY)");
        statement.execute("INSERT INTO kept VALUES (1)");
      }
      long killed = crashed.serverPid();

      crashed.kill(java.time.Duration.ofSeconds(10));
      assertThat(ProcessHandle.of(killed).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThatThrownBy(crashed::connect).isInstanceOf(SQLException.class);
      long restarted = crashed.restart();

      assertThat(restarted).isNotEqualTo(killed).isEqualTo(crashed.serverPid());
      try (Connection connection = crashed.connect();
          java.sql.Statement statement = connection.createStatement();
          java.sql.ResultSet rows = statement.executeQuery("SELECT count(*) FROM kept")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getInt(1)).as("the committed row survived the crash").isEqualTo(1);
      }
    }
  }

  @Test
  void closeStopsTheServerAndDeletesItsDirectory() throws Exception {
    EmbeddedPostgres closed = EmbeddedPostgres.start();
    long pid = closed.serverPid();
    Path directory = closed.directory();
    assertThat(closed.isRunning()).isTrue();

    closed.close();
    closed.close();

    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(directory).doesNotExist();
    assertThatThrownBy(closed::connect).isInstanceOf(SQLException.class);
  }

  @Test
  void theServerOfAKilledLabIsKilledAndItsDirectoryDeletedByTheNextStart() throws Exception {
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EmbeddedPostgresChild.class.getName())
            .redirectErrorStream(true)
            .start();
    long serverPid = -1;
    Path directory = null;
    try (BufferedReader output =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        if (line.startsWith(EmbeddedPostgresChild.READY)) {
          String[] parts = line.substring(EmbeddedPostgresChild.READY.length()).split(" ", 2);
          serverPid = Long.parseLong(parts[0]);
          directory = Path.of(parts[1]);
          break;
        }
      }
      assertThat(serverPid).as("the child JVM reported its server").isPositive();
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    assertThat(ProcessHandle.of(serverPid).map(ProcessHandle::isAlive)).contains(true);
    assertThat(directory).exists();

    List<Path> deleted = EmbeddedPostgres.cleanUpStaleServers();

    long killed = serverPid;
    assertThat(ProcessHandle.of(killed).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(directory).doesNotExist();
    assertThat(deleted).contains(directory);
    assertThat(source.isRunning()).as("this JVM's own server is spared").isTrue();
    assertThat(Files.exists(source.directory())).isTrue();
  }
}
