package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.examples.customfault.BinlogConnections.ServerThread;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * One {@code source-connection-loss}: the kit's {@link ProvenFault} proves the kill, keeps the
 * evidence and heals; recovery is awaited here, from the connector's reconnect. The kit's recovery
 * counts from the kill, but the sink commits what was read before the kill within a checkpoint
 * interval, long before the connector notices the loss (after its keep-alive interval) and
 * reconnects.
 */
final class SourceConnectionLoss implements FaultHandle {

  private final ProvenFault kill;
  private final PipelineView view;
  private final Observation baseline;
  private final BinlogConnections connections;
  private final List<Long> killed;

  SourceConnectionLoss(
      ProvenFault kill,
      PipelineView view,
      Observation baseline,
      BinlogConnections connections,
      List<Long> ids) {
    this.kill = kill;
    this.view = view;
    this.baseline = baseline;
    this.connections = connections;
    this.killed = List.copyOf(ids);
  }

  @Override
  public FaultEvidence evidence() {
    return kill.evidence();
  }

  @Override
  public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
    return kill.awaitFired(timeout);
  }

  // region recovery
  /**
   * A new binlog connection of the account (the connector reconnected, or the restarted job's
   * reader connected), the job running, a checkpoint completed after the reconnect and its commit.
   */
  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    FaultEvidence fired = kill.awaitFired(timeout);
    Instant killedAt = fired.firedAt();
    if (!fired.fired() || killedAt == null) {
      throw new IllegalStateException(fired.faultId() + " did not fire: " + fired.reason());
    }
    ServerThread reconnected =
        Waiting.until(
            "new binlog connection on the source",
            Waiting.left(deadline),
            () ->
                connections.dumpThreads().stream()
                    .filter(t -> !killed.contains(t.id()))
                    .findFirst());
    Instant reconnectedAt = view.clock().instant();
    JobControl job = view.job();
    job.awaitRunning(Waiting.left(deadline));
    Instant runningAt = view.clock().instant();
    CheckpointInfo checkpoint =
        job.awaitCompletedCheckpointAfter(reconnectedAt, Waiting.left(deadline));
    TableAccess tables = view.tables().orElseThrow();
    SnapshotInfo commit =
        Waiting.until(
            "sink commit of checkpoint " + checkpoint.id() + " or later, after the reconnect",
            Waiting.left(deadline),
            () ->
                tables.snapshots(tables.currentTable()).stream()
                    .filter(snapshot -> commits(snapshot, checkpoint, reconnectedAt))
                    .findFirst());
    long restarts =
        job.jobId().equals(baseline.jobId()) ? job.restartCount() - baseline.restartCount() : 0;
    return RecoveryEvidence.builder(killedAt)
        .runningAt(runningAt)
        .firstCheckpoint(
            checkpoint.id(),
            checkpoint.finishedAt() != null ? checkpoint.finishedAt() : view.clock().instant())
        .firstCommit(commit.snapshotId(), commit.committedAt())
        .restarts(restarts)
        .detail("reconnected_connection_id", Long.toString(reconnected.id()))
        .detail("reconnected_connection_client", reconnected.client())
        .detail("reconnected_at", reconnectedAt.toString())
        .detail("reconnected_after_ms", "" + Duration.between(killedAt, reconnectedAt).toMillis())
        .detail("first_commit_table", commit.table())
        .build();
  }

  // endregion

  /**
   * Whether {@code snapshot} was committed after {@code after}, for {@code checkpoint} or later.
   */
  private static boolean commits(SnapshotInfo snapshot, CheckpointInfo checkpoint, Instant after) {
    Long committed = snapshot.committedCheckpointId();
    return snapshot.committedAt().isAfter(after)
        && (committed == null || committed >= checkpoint.id());
  }

  /** Heals through the kit: once, however often it is called. */
  @Override
  public void close() {
    kill.close();
  }
}
