package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.direct.job.SourceEngine;
import io.reliabilitylab.source.mysql.BinlogClients;
import io.reliabilitylab.source.postgres.ReplicationSlots;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the direct job's change-log reader is connected to the source, which says that its
 * snapshot is done and it streams; and what the pipeline leaves on the source when it ends.
 */
abstract class StreamReaders {

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

    private final ReplicationSlots slot;
    private volatile int earlierPid;

    ReplicationSlot(SourceEndpoint source, String slot) {
      this.slot = ReplicationSlots.of(source, slot);
    }

    @Override
    void beforeSubmit() throws SQLException {
      earlierPid = slot.activePid();
    }

    @Override
    boolean newReaderConnected() throws SQLException {
      int pid = slot.activePid();
      return pid != 0 && pid != earlierPid;
    }

    @Override
    String reader() {
      return "Flink CDC's replication stream (slot " + slot.name() + ")";
    }

    @Override
    Optional<String> replicationSlot() {
      return Optional.of(slot.name());
    }

    @Override
    void release() {
      slot.dropWhenReleased(RELEASE_TIMEOUT);
    }
  }
}
