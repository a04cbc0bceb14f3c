package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's logical replication slot on a PostgreSQL server, seen through {@code
 * pg_replication_slots}: whether a walsender holds it (which says that a reader streams), and its
 * removal once no reader holds it, so that a finished pipeline does not keep the server's WAL.
 */
@API(status = EXPERIMENTAL)
public final class ReplicationSlots {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicationSlots.class);
  private static final Duration RELEASE_POLL = Duration.ofMillis(200);
  private static final Pattern SLOT_NAME = Pattern.compile("[a-z0-9_]{1,63}");

  private final SourceEndpoint source;
  private final String slot;

  private ReplicationSlots(SourceEndpoint source, String slot) {
    this.source = source;
    this.slot = slot;
  }

  /** The slot {@code slot} on the server {@code source} names. */
  public static ReplicationSlots of(SourceEndpoint source, String slot) {
    return new ReplicationSlots(source, checkName(slot));
  }

  /**
   * A fresh slot name for one pipeline, {@code <prefix>_<random hex>}: two pipelines on one server
   * never share a slot, whose confirmed position is each one's own.
   */
  public static String newName(String prefix) {
    return checkName(
        prefix + "_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16));
  }

  /** A slot name is 1 to 63 lower-case letters, digits or {@code _} (PostgreSQL's own rule). */
  public static String checkName(String slot) {
    if (!SLOT_NAME.matcher(slot).matches()) {
      throw new IllegalArgumentException(
          "A replication slot name is 1 to 63 lower-case letters, digits or _, got '" + slot + "'");
    }
    return slot;
  }

  /** The slot's name. */
  public String name() {
    return slot;
  }

  /**
   * The walsender streaming from the slot, 0 when none does or there is no slot. A session that
   * holds the slot while creating it is not one: a logical slot's creation waits for the
   * transactions running at that moment to end, and a reader counted as streaming then would let
   * changes be written before the connector's snapshot (Flink CDC's PostgreSQL source creates its
   * slot before it snapshots). Where the session's command cannot be seen (another role's, without
   * {@code pg_read_all_stats}), a walsender holding the slot counts as streaming.
   */
  public int activePid() throws SQLException {
    try (Connection connection = connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT s.active_pid FROM pg_replication_slots s"
                    + " LEFT JOIN pg_stat_activity a ON a.pid = s.active_pid"
                    + " WHERE s.slot_name = ? AND s.active"
                    + " AND coalesce(a.backend_type, 'walsender') = 'walsender'"
                    + " AND ltrim(coalesce(a.query, '')) NOT ILIKE 'CREATE_REPLICATION_SLOT%'")) {
      query.setString(1, slot);
      try (ResultSet result = query.executeQuery()) {
        return result.next() ? result.getInt(1) : 0;
      }
    }
  }

  /** Whether the slot exists. */
  public boolean exists() throws SQLException {
    try (Connection connection = connect()) {
      return exists(connection);
    }
  }

  /**
   * Drops the slot once its reader let go of it (a stopped reader's walsender ends a moment after
   * the reader), waiting up to {@code timeout}; logs what is left and never throws.
   */
  public void dropWhenReleased(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Connection connection = connect();
        PreparedStatement drop =
            connection.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                    + " WHERE slot_name = ? AND NOT active")) {
      drop.setString(1, slot);
      while (exists(connection)) {
        drop.executeQuery().close();
        if (!exists(connection) || System.nanoTime() > deadline) {
          break;
        }
        Thread.sleep(RELEASE_POLL.toMillis());
      }
      if (exists(connection)) {
        LOG.warn(
            "Replication slot {} on {} is still held after {} s: drop it with"
                + " SELECT pg_drop_replication_slot('{}'); once no reader holds it",
            slot,
            source.description(),
            timeout.toSeconds(),
            slot);
      }
    } catch (SQLException e) {
      LOG.warn(
          "Could not drop replication slot {} on {}: {}",
          slot,
          source.description(),
          e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean exists(Connection connection) throws SQLException {
    try (PreparedStatement query =
        connection.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
      query.setString(1, slot);
      try (ResultSet result = query.executeQuery()) {
        return result.next();
      }
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(
        source.jdbcUrl(), source.user(), source.credentials().revealPassword());
  }

  @Override
  public String toString() {
    return "replication slot " + slot + " on " + source.description();
  }
}
