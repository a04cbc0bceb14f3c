package io.reliabilitylab.kit;

import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ProvenFault}'s wait for recovery: the job running again, then a checkpoint completed
 * after the fault, then the first sink commit after it, each within the one deadline. With a {@link
 * RecoveryStart}, "after the fault" is after the moment it waited for.
 */
final class RecoveryWait {

  private final PipelineView view;
  private final Observation baseline;
  private final ProvenFault.RecoveryDetails recoveryDetails;
  private final @Nullable RecoveryStart recoveryStart;

  RecoveryWait(
      PipelineView view,
      Observation baseline,
      ProvenFault.RecoveryDetails recoveryDetails,
      @Nullable RecoveryStart recoveryStart) {
    this.view = view;
    this.baseline = baseline;
    this.recoveryDetails = recoveryDetails;
    this.recoveryStart = recoveryStart;
  }

  /**
   * Recovery from the fault {@code fired} (at its firing time, else its injection time), whose
   * proof saw {@code atProof}, by {@code deadline} (a {@link System#nanoTime()}).
   */
  RecoveryEvidence await(FaultEvidence fired, Observation atProof, Duration timeout, long deadline)
      throws TimeoutException, InterruptedException {
    Instant faultAt = fired.firedAt() != null ? fired.firedAt() : fired.injectedAt();
    String faultStatus = "fault " + fired.status() + " at " + faultAt;
    RecoveryStart.Moment start = null;
    if (recoveryStart != null) {
      try {
        start = recoveryStart.await(faultAt, Polling.remaining(deadline));
      } catch (TimeoutException e) {
        throw new TimeoutException(faultStatus + "; " + e.getMessage());
      }
    }
    Instant from = start != null ? start.at() : faultAt;

    try {
      view.job().awaitRunning(Polling.remaining(deadline));
    } catch (TimeoutException e) {
      throw new TimeoutException(
          faultStatus
              + "; the job was not running again within "
              + timeout
              + " (state "
              + view.job().state()
              + "): "
              + e.getMessage());
    }
    Instant runningAt = view.clock().instant();

    CheckpointInfo checkpoint;
    try {
      checkpoint = view.job().awaitCompletedCheckpointAfter(from, Polling.remaining(deadline));
    } catch (TimeoutException e) {
      throw new TimeoutException(
          faultStatus
              + "; running again at "
              + runningAt
              + ", but no checkpoint completed after "
              + (start != null ? "recovery started at " + from : "the fault")
              + " within "
              + timeout
              + ": "
              + e.getMessage());
    }
    Instant checkpointAt =
        checkpoint.finishedAt() != null ? checkpoint.finishedAt() : view.clock().instant();

    RecoveryEvidence.Builder recovery =
        RecoveryEvidence.builder(faultAt)
            .runningAt(runningAt)
            .firstCheckpoint(checkpoint.id(), checkpointAt)
            .detail("fault_status", fired.status().name())
            .detail("job_id", view.job().jobId());
    if (start != null) {
      recovery.details(start.details());
    }
    if (view.tables().isEmpty()) {
      return recovery
          .detail(
              "first_commit", "not observable: the pipeline offers no TableAccess to read commits")
          .restarts(restartsSince(baseline))
          .build();
    }
    SnapshotInfo commit =
        start != null
            ? awaitCommit(
                committedOf(checkpoint, from),
                "after recovery started at " + from + ", but no sink commit of it or later",
                deadline,
                timeout,
                runningAt,
                checkpoint)
            : awaitCommit(
                committedAfter(faultAt, atProof),
                "after the fault, but no sink commit after the fault at " + faultAt,
                deadline,
                timeout,
                runningAt,
                checkpoint);
    Observation recovered = view.observe();
    recovery.detail("first_commit_table", commit.table());
    if (commit.committedCheckpointId() != null) {
      recovery.detail("first_commit_checkpoint_id", Long.toString(commit.committedCheckpointId()));
    }
    recovery.detail("restart_count_after_recovery", Long.toString(recovered.restartCount()));
    try {
      recovery.details(recoveryDetails.measure(recovered));
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      recovery.detail("recovery_details_problem", e.toString());
    }
    return recovery
        .restarts(restartsSince(baseline))
        .firstCommit(commit.snapshotId(), commit.committedAt())
        .build();
  }

  /**
   * After the fault: a snapshot the proof did not see yet, committed after the fault time or for a
   * checkpoint beyond what was committed before.
   */
  private Predicate<SnapshotInfo> committedAfter(Instant faultAt, Observation atProof) {
    Set<Long> seen = new HashSet<>();
    if (atProof.snapshots() != null) {
      atProof.snapshots().forEach(s -> seen.add(s.snapshotId()));
    }
    long committedBefore =
        Math.max(baseline.maxCommittedCheckpointId(), atProof.maxCommittedCheckpointId());
    return snapshot -> {
      Long committed = snapshot.committedCheckpointId();
      return !seen.contains(snapshot.snapshotId())
          && (snapshot.committedAt().isAfter(faultAt)
              || committed != null && committed > committedBefore);
    };
  }

  /**
   * After recovery started at {@code from}: committed after it, for {@code checkpoint} or a later
   * one; what the sink committed of the stream read before {@code from} does not count.
   */
  private static Predicate<SnapshotInfo> committedOf(CheckpointInfo checkpoint, Instant from) {
    return snapshot -> {
      Long committed = snapshot.committedCheckpointId();
      return snapshot.committedAt().isAfter(from)
          && (committed == null || committed >= checkpoint.id());
    };
  }

  /**
   * The first snapshot of the current table that {@code counts}; the timeout's message says what
   * was running and checkpointed, and what commit was {@code missing}.
   */
  private SnapshotInfo awaitCommit(
      Predicate<SnapshotInfo> counts,
      String missing,
      long deadline,
      Duration timeout,
      Instant runningAt,
      CheckpointInfo checkpoint)
      throws TimeoutException, InterruptedException {
    Duration pause = Polling.FIRST_POLL;
    while (true) {
      List<SnapshotInfo> snapshots = view.currentSnapshots();
      if (snapshots != null) {
        for (SnapshotInfo snapshot : snapshots) {
          if (counts.test(snapshot)) {
            return snapshot;
          }
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        String problem = view.lastReadProblem();
        throw new TimeoutException(
            "running again at "
                + runningAt
                + ", checkpoint "
                + checkpoint.id()
                + " completed "
                + missing
                + " within "
                + timeout
                + (problem == null ? "" : " (" + problem + ")"));
      }
      pause = Polling.sleep(pause, left);
    }
  }

  private long restartsSince(Observation before) {
    if (!view.job().jobId().equals(before.jobId())) {
      return 0; // a restored job counts its restarts afresh
    }
    return Math.max(0, view.job().restartCount() - before.restartCount());
  }
}
