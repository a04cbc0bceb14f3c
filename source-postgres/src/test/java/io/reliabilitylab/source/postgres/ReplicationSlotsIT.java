package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.PGReplicationStream;

/**
 * A slot counts as read only once a walsender streams from it: while its creation waits for a
 * running transaction (as Flink CDC's, created before its snapshot, can), the walsender already
 * holds it, and a lab that took that for streaming wrote changes the snapshot then folded in.
 */
class ReplicationSlotsIT {

  private static EmbeddedPostgres source;

  @BeforeAll
  static void start() throws SQLException {
    source = EmbeddedPostgresIT.startOrSkip();
    try (Connection admin = source.connect();
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE TABLE slot_wait (id int PRIMARY KEY)");
      statement.execute("CREATE PUBLICATION lab_slot_wait FOR TABLE slot_wait");
    }
  }

  @AfterAll
  static void stop() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void aSlotHeldWhileItsCreationWaitsIsNotReadUntilAWalsenderStreamsFromIt() throws Exception {
    ReplicationSlots slot = ReplicationSlots.of(source.endpoint("slot_wait"), "lab_slot_wait");
    try (Connection open = source.connect();
        Statement write = open.createStatement();
        Connection replication = replicationConnection()) {
      open.setAutoCommit(false);
      write.execute("INSERT INTO slot_wait VALUES (1)");
      CompletableFuture<Void> created =
          CompletableFuture.runAsync(
              () -> {
                try {
                  replication
                      .unwrap(PGConnection.class)
                      .getReplicationAPI()
                      .createReplicationSlot()
                      .logical()
                      .withSlotName(slot.name())
                      .withOutputPlugin("pgoutput")
                      .make();
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      long holder = awaitHeld(slot.name());

      assertThat(created).as("the creation waits for the open transaction").isNotDone();
      assertThat(holder).isNotZero();
      assertThat(slot.activePid()).as("a slot being created is not read").isZero();

      open.commit();
      created.get(30, TimeUnit.SECONDS);
      try (PGReplicationStream stream =
          replication
              .unwrap(PGConnection.class)
              .getReplicationAPI()
              .replicationStream()
              .logical()
              .withSlotName(slot.name())
              .withSlotOption("proto_version", "1")
              .withSlotOption("publication_names", "lab_slot_wait")
              .start()) {
        assertThat(awaitActive(slot)).as("the walsender streaming from it").isEqualTo(holder);
      }
    }
    slot.dropWhenReleased(Duration.ofSeconds(15));
    assertThat(slot.exists()).isFalse();
  }

  private static Connection replicationConnection() throws SQLException {
    Properties properties = new Properties();
    PGProperty.USER.set(properties, source.cdcCredentials().user());
    PGProperty.PASSWORD.set(properties, source.cdcCredentials().revealPassword());
    PGProperty.REPLICATION.set(properties, "database");
    PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "10");
    PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
    return DriverManager.getConnection(source.jdbcUrl(), properties);
  }

  /** The pid holding the slot, as PostgreSQL shows it, once it holds it. */
  private static long awaitHeld(String slot) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    try (Connection admin = source.connect();
        Statement statement = admin.createStatement()) {
      while (System.nanoTime() < deadline) {
        try (ResultSet held =
            statement.executeQuery(
                "SELECT active_pid FROM pg_replication_slots WHERE active AND slot_name = '"
                    + slot
                    + "'")) {
          if (held.next()) {
            return held.getLong(1);
          }
        }
        Thread.sleep(50);
      }
    }
    return 0;
  }

  private static long awaitActive(ReplicationSlots slot) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      int pid = slot.activePid();
      if (pid != 0) {
        return pid;
      }
      Thread.sleep(50);
    }
    return 0;
  }
}
