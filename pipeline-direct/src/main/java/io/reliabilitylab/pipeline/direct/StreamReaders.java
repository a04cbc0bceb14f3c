package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.direct.job.SourceEngine;
import io.reliabilitylab.source.mysql.BinlogClients;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the direct job's change-log reader is connected to the source, which says that its
 * snapshot is done and it streams; and what the pipeline leaves on the source when it ends.
 */
abstract class StreamReaders {

  private static final Logger LOG = LoggerFactory.getLogger(StreamReaders.class);

  /** The readers for the job's source: binlog dumps, or the job's replication slot. */
  static StreamReaders of(DirectJobConfig config) {
    return config.engine() == SourceEngine.POSTGRES
        ? new ReplicationSlot(config.source(), config.slotName())
        : new BinlogDumps(config.source());
  }

  /** Notes the readers connected now, before a job is submitted: they are not the new job's. */
  abstract void beforeSubmit() throws SQLException;

  /** Whether a reader connected that was not connected {@link #beforeSubmit() before}. */
  abstract boolean newReaderConnected() throws SQLException;

  /** What connects, for messages: {@code Flink CDC's binlog reader}. */
  abstract String reader();

  /** The replication slot the job streams through, on PostgreSQL. */
  Optional<String> replicationSlot() {
    return Optional.empty();
  }

  /** Removes what the job kept on the source once no job reads it; never throws. */
  void release() {}

  /** MySQL/MariaDB: a {@code Binlog Dump} thread of the CDC account. */
  private static final class BinlogDumps extends StreamReaders {
    private final SourceEndpoint source;
    // dumps connected before the current job was submitted: on a cluster of processes a cancelled
    // job's binlog client may linger for a moment in its TaskManager
    private volatile Set<Long> earlier = Set.of();

    BinlogDumps(SourceEndpoint source) {
      this.source = source;
    }

    @Override
    void beforeSubmit() throws SQLException {
      earlier = Set.copyOf(BinlogClients.dumpThreads(source));
    }

    @Override
    boolean newReaderConnected() throws SQLException {
      return BinlogClients.newDumpConnected(source, earlier);
    }

    @Override
    String reader() {
      return "Flink CDC's binlog reader";
    }
  }

  /**
   * PostgreSQL: the job's slot active, held by a walsender other than the one that held it before
   * the job was submitted. The slot outlives the job's restores (its confirmed LSN is where a
   * restored job resumes) and is dropped when the pipeline ends, so that it does not hold WAL.
   */
  private static final class ReplicationSlot extends StreamReaders {
    private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(15);

    private final SourceEndpoint source;
    private final String slot;
    private volatile int earlierPid;

    ReplicationSlot(SourceEndpoint source, String slot) {
      this.source = source;
      this.slot = slot;
    }

    @Override
    void beforeSubmit() throws SQLException {
      earlierPid = activePid();
    }

    @Override
    boolean newReaderConnected() throws SQLException {
      int pid = activePid();
      return pid != 0 && pid != earlierPid;
    }

    @Override
    String reader() {
      return "Flink CDC's replication stream (slot " + slot + ")";
    }

    @Override
    Optional<String> replicationSlot() {
      return Optional.of(slot);
    }

    @Override
    void release() {
      long deadline = System.nanoTime() + RELEASE_TIMEOUT.toNanos();
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
          // the cancelled job's walsender lets go of the slot a moment after the job ends
          Thread.sleep(200);
        }
        if (exists(connection)) {
          LOG.warn(
              "Replication slot {} on {} is still held after {} s: drop it with"
                  + " SELECT pg_drop_replication_slot('{}'); once no job reads it",
              slot,
              source.description(),
              RELEASE_TIMEOUT.toSeconds(),
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

    /** The walsender holding the slot, 0 when none does or there is no slot. */
    private int activePid() throws SQLException {
      try (Connection connection = connect();
          PreparedStatement query =
              connection.prepareStatement(
                  "SELECT active_pid FROM pg_replication_slots WHERE slot_name = ? AND active")) {
        query.setString(1, slot);
        try (ResultSet result = query.executeQuery()) {
          return result.next() ? result.getInt(1) : 0;
        }
      }
    }

    private Connection connect() throws SQLException {
      return DriverManager.getConnection(
          source.jdbcUrl(), source.user(), source.credentials().revealPassword());
    }
  }
}
