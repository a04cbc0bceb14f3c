package io.reliabilitylab.faults;

import io.reliabilitylab.faults.WalSenders.WalSender;
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
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * One {@code walsender-terminated}: the kit's {@link ProvenFault} proves the termination and keeps
 * the evidence; recovery counts from the new walsender. The kit's recovery would count from the
 * termination, but a checkpoint completed between the termination and the moment the connector
 * noticed it shows nothing about the new stream.
 */
final class WalSenderRecovery implements FaultHandle {

  private static final Duration POLL = Duration.ofMillis(50);

  private final ProvenFault termination;
  private final PipelineView view;
  private final Observation baseline;
  private final WalSenders walSenders;
  private final int terminatedPid;

  WalSenderRecovery(
      ProvenFault termination,
      PipelineView view,
      Observation baseline,
      WalSenders walSenders,
      int terminatedPid) {
    this.termination = termination;
    this.view = view;
    this.baseline = baseline;
    this.walSenders = walSenders;
    this.terminatedPid = terminatedPid;
  }

  @Override
  public FaultEvidence evidence() {
    return termination.evidence();
  }

  @Override
  public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
    return termination.awaitFired(timeout);
  }

  /**
   * Another walsender holding the slot (the connector reconnected, or the restarted job's source
   * did), the job running, a checkpoint completed after the reconnect and a sink commit of it.
   */
  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    FaultEvidence fired = termination.awaitFired(timeout);
    Instant terminatedAt = fired.firedAt();
    if (!fired.fired() || terminatedAt == null) {
      throw new IllegalStateException(fired.faultId() + " did not fire: " + fired.reason());
    }
    WalSender successor = awaitSuccessor(deadline, timeout);
    Instant reconnectedAt = view.clock().instant();
    JobControl job = view.job();
    job.awaitRunning(left(deadline));
    Instant runningAt = view.clock().instant();
    CheckpointInfo checkpoint = job.awaitCompletedCheckpointAfter(reconnectedAt, left(deadline));
    SnapshotInfo commit =
        awaitCommit(view.tables().orElseThrow(), checkpoint, reconnectedAt, deadline);
    long restarts =
        job.jobId().equals(baseline.jobId()) ? job.restartCount() - baseline.restartCount() : 0;
    return RecoveryEvidence.builder(terminatedAt)
        .runningAt(runningAt)
        .firstCheckpoint(
            checkpoint.id(),
            checkpoint.finishedAt() != null ? checkpoint.finishedAt() : view.clock().instant())
        .firstCommit(commit.snapshotId(), commit.committedAt())
        .restarts(restarts)
        .detail("new_walsender_pid", Integer.toString(successor.pid()))
        .detail("new_walsender_client", successor.client())
        .detail("reconnected_at", reconnectedAt.toString())
        .detail(
            "reconnected_after_ms",
            Long.toString(Duration.between(terminatedAt, reconnectedAt).toMillis()))
        .detail("first_commit_table", commit.table())
        .build();
  }

  private WalSender awaitSuccessor(long deadline, Duration timeout)
      throws TimeoutException, InterruptedException {
    String problem = "";
    while (System.nanoTime() - deadline < 0) {
      try {
        Optional<WalSender> current = walSenders.current();
        if (current.isPresent() && current.get().pid() != terminatedPid) {
          return current.get();
        }
      } catch (SQLException e) {
        problem = "; the last look failed: " + e.getMessage();
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new TimeoutException(
        "no walsender took slot "
            + walSenders.slot()
            + " over from terminated pid "
            + terminatedPid
            + " within "
            + timeout
            + problem);
  }

  /** The first snapshot of the current table committed after {@code after} for the checkpoint. */
  private SnapshotInfo awaitCommit(
      TableAccess tables, CheckpointInfo checkpoint, Instant after, long deadline)
      throws TimeoutException, InterruptedException {
    while (System.nanoTime() - deadline < 0) {
      try {
        for (SnapshotInfo snapshot : tables.snapshots(tables.currentTable())) {
          Long committed = snapshot.committedCheckpointId();
          if (snapshot.committedAt().isAfter(after)
              && (committed == null || committed >= checkpoint.id())) {
            return snapshot;
          }
        }
      } catch (Exception busy) {
        // a commit in progress: read again
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new TimeoutException(
        "checkpoint "
            + checkpoint.id()
            + " completed after the reconnect at "
            + after
            + ", but no sink commit of it or later");
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
  }

  @Override
  public void close() {
    termination.close();
  }
}
