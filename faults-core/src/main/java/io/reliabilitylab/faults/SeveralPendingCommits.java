package io.reliabilitylab.faults;

import io.reliabilitylab.kit.CheckpointFailureReasons;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code sink-commit-failure} with {@code variant=several-pending}: the job dies between the
 * separate commits the sink makes for several pending checkpoints.
 *
 * <p>How several checkpoints become pending, as Iceberg 1.10's {@code IcebergFilesCommitter} (the
 * v1 {@code FlinkSink}) works: the committer files a checkpoint's data under its id in {@code
 * snapshotState} and commits everything up to N in {@code notifyCheckpointComplete(N)}. A
 * checkpoint that fails after the committer took it is never notified, so its files stay pending
 * and are committed with the next completed checkpoint; for a table with delete files (the upsert
 * table) each pending checkpoint gets its own {@code RowDelta} commit, in order, each carrying its
 * own {@code flink.max-committed-checkpoint-id}. So: the {@code checkpoint-storage} point fails the
 * first file of checkpoint N. With task state inlined into the checkpoint's metadata (Flink's
 * default {@code state.storage.fs.memory-threshold}), that file is the {@code _metadata} the job
 * writes when it finalizes N, after every task, the committer included, took it
 * (FINALIZE_CHECKPOINT_FAILURE): N is never notified and stays pending. N+1 completes, and the
 * {@code sink-commit-current} point fails the commit of N+1 before its swap, right after N's commit
 * went through. After the restore the committer finds N committed and commits N+1 alone: each
 * exactly once. (With task state in files the failing file may be a task's, before the committer
 * took N; the proof then refutes the run instead of passing it.)
 *
 * <p>Proof: the storage fault fired and checkpoint N failed (its reason recorded); the current
 * table holds a new snapshot committing N, made before the failure, and none committing N+1 before
 * it; the fault id is in the exception history and the restart count rose by exactly one. The
 * recovery record counts the commits of N and N+1 per table.
 */
final class SeveralPendingCommits {

  private SeveralPendingCommits() {}

  /** The fault id of the storage failure that fails checkpoint N, derived from the fault's id. */
  static String holdId(String faultId) {
    return faultId + "-hold";
  }

  static FaultHandle start(FaultContext context, PipelineView view, long held) throws Exception {
    FaultSpec spec = context.spec();
    for (String point :
        List.of(BuiltInFault.CHECKPOINT_STORAGE, BuiltInFault.SINK_COMMIT_CURRENT)) {
      Optional<FaultHandle> skipped = BuiltInFault.skipIfPointMissing(context, view, point);
      if (skipped.isPresent()) {
        return skipped.get();
      }
    }
    FaultPoints points = view.faultPoints().orElseThrow();
    Map<String, Set<Long>> before = SinkCommitFailureInjector.snapshotIdsByTable(view);
    Observation baseline = view.observe();
    String faultId = spec.id();
    String hold = holdId(faultId);
    long failing = held + 1;
    points.arm(
        BuiltInFault.SINK_COMMIT_CURRENT,
        new FaultPosition.AroundCommit(failing, false),
        BuiltInFault.FAIL_COMMIT_BEFORE_SWAP,
        faultId);
    try {
      points.arm(
          BuiltInFault.CHECKPOINT_STORAGE,
          new FaultPosition.AtCheckpoint(held),
          BuiltInFault.THROW,
          hold);
    } catch (RuntimeException e) {
      points.disarm(faultId);
      throw e;
    }
    ProofRule failover = Proofs.failoverCarrying(faultId, 1);
    ProofRule proof =
        (base, now) -> {
          Optional<CheckpointInfo> failed = Proofs.newFailedCheckpoint(base, now, held);
          Optional<Instant> heldAt = points.firedAt(hold);
          if (heldAt.isEmpty()) {
            return ProofVerdict.pending(
                "checkpoint "
                    + held
                    + " has not reached the checkpoint storage yet (latest checkpoint "
                    + now.latestCheckpointId()
                    + ")");
          }
          if (failed.isEmpty()) {
            return ProofVerdict.pending(
                "the checkpoint storage failed a file of checkpoint "
                    + held
                    + " at "
                    + heldAt.get()
                    + "; waiting for the checkpoint to be reported FAILED");
          }
          CheckpointInfo expired = failed.get();
          ProofVerdict verdict = failover.judge(base, now);
          if (!(verdict instanceof ProofVerdict.Proven proven)) {
            return verdict;
          }
          if (expired.id() != held) {
            return ProofVerdict.refuted(
                "checkpoint "
                    + expired.id()
                    + " failed instead of "
                    + held
                    + ", so the failed commit was not the second of a round");
          }
          List<JobFailure> carrying = Proofs.newFailuresCarrying(faultId, base, now);
          Instant failedAt = carrying.get(0).at();
          List<SnapshotInfo> fresh = newSnapshots(now, before, view);
          Optional<SnapshotInfo> heldCommit =
              fresh.stream()
                  .filter(s -> Long.valueOf(held).equals(s.committedCheckpointId()))
                  .filter(s -> !s.committedAt().isAfter(failedAt))
                  .findFirst();
          boolean failingCommittedBefore =
              fresh.stream()
                  .anyMatch(
                      s ->
                          Long.valueOf(failing).equals(s.committedCheckpointId())
                              && !s.committedAt().isAfter(failedAt));
          if (heldCommit.isEmpty() || failingCommittedBefore) {
            return ProofVerdict.refuted(
                "the job failed with "
                    + faultId
                    + " at "
                    + failedAt
                    + ", but the current table "
                    + (heldCommit.isEmpty()
                        ? "holds no commit of the held checkpoint " + held + " before it"
                        : "committed checkpoint " + failing + " before it")
                    + ": the failure did not fall between the commits of one round ("
                    + describe(fresh)
                    + "); the checkpoint must fail after the committer took it, when the job"
                    + " finalizes it (task state inlined into its metadata), not in a task's"
                    + " asynchronous part");
          }
          SnapshotInfo commit = heldCommit.get();
          List<String> proofs = new ArrayList<>(proven.proofs());
          proofs.add(
              "the checkpoint storage failed checkpoint "
                  + held
                  + " at "
                  + heldAt.get()
                  + " after the committer took it: "
                  + CheckpointFailureReasons.describe(expired.failureReason()));
          proofs.add(
              "in the round of checkpoint "
                  + failing
                  + ", snapshot "
                  + commit.snapshotId()
                  + " of "
                  + commit.table()
                  + " committed the pending checkpoint "
                  + held
                  + " at "
                  + commit.committedAt()
                  + ", then the commit of "
                  + failing
                  + " failed before its swap");
          Map<String, String> details = new LinkedHashMap<>(proven.details());
          details.put("held_checkpoint_id", Long.toString(held));
          details.put(
              "held_checkpoint_failure_reason",
              CheckpointFailureReasons.describe(expired.failureReason()));
          details.put("failed_commit_checkpoint_id", Long.toString(failing));
          details.put("held_commit_snapshot_id", Long.toString(commit.snapshotId()));
          details.put("commits_before_failure", describe(fresh));
          return ProofVerdict.proven(proven.firedAt(), proofs, details);
        };
    return ProvenFault.builder(context, view, baseline)
        .what(
            "checkpoint "
                + held
                + " fails after the committer took it, then the commit round of "
                + failing
                + " fails between the commits of "
                + held
                + " and "
                + failing)
        .detail(SinkCommitFailureInjector.VARIANT, SinkCommitFailureInjector.SEVERAL_PENDING)
        .detail(
            "fault_point",
            BuiltInFault.SINK_COMMIT_CURRENT + " + " + BuiltInFault.CHECKPOINT_STORAGE)
        .detail("held_checkpoint_id", Long.toString(held))
        .detail("hold_fault_id", hold)
        .proof(proof)
        .healing(
            () -> {
              points.disarm(hold);
              points.disarm(faultId);
            })
        .recoveryDetails(recovered -> commitCounts(view, held, failing))
        .build();
  }

  private static List<SnapshotInfo> newSnapshots(
      Observation now, Map<String, Set<Long>> before, PipelineView view) {
    List<SnapshotInfo> snapshots = now.snapshots();
    if (snapshots == null || view.tables().isEmpty()) {
      return List.of();
    }
    Set<Long> known =
        new HashSet<>(before.getOrDefault(view.tables().get().currentTable(), Set.of()));
    return snapshots.stream().filter(s -> !known.contains(s.snapshotId())).toList();
  }

  private static Map<String, String> commitCounts(PipelineView view, long held, long failing)
      throws Exception {
    Map<String, String> details = new LinkedHashMap<>();
    if (view.tables().isEmpty()) {
      return details;
    }
    var tables = view.tables().get();
    for (String table : List.of(tables.currentTable(), tables.changelogTable())) {
      Map<Long, Long> commits = new TreeMap<>();
      for (SnapshotInfo snapshot : tables.snapshots(table)) {
        if (snapshot.committedCheckpointId() != null) {
          commits.merge(snapshot.committedCheckpointId(), 1L, Long::sum);
        }
      }
      details.put(
          "commits_of_checkpoint_" + held + "_" + table,
          Long.toString(commits.getOrDefault(held, 0L)));
      details.put(
          "commits_of_checkpoint_" + failing + "_" + table,
          Long.toString(commits.getOrDefault(failing, 0L)));
      String twice =
          commits.entrySet().stream()
              .filter(e -> e.getValue() > 1)
              .map(e -> e.getKey() + " x" + e.getValue())
              .collect(Collectors.joining(", "));
      details.put(
          "checkpoints_committed_more_than_once_" + table, twice.isEmpty() ? "none" : twice);
    }
    try {
      details.putAll(MergedCommitHazard.details(tables, held, failing));
    } catch (Exception e) {
      // The hazard's evidence is a bonus: the commit counts above must survive a table unread.
      details.put(
          "keys_changed_in_both_pending_checkpoints",
          "unknown: the current table could not be read (" + e + ")");
    }
    return details;
  }

  private static String describe(List<SnapshotInfo> snapshots) {
    return snapshots.isEmpty()
        ? "none"
        : snapshots.stream()
            .map(s -> s.snapshotId() + ":" + s.committedCheckpointId())
            .collect(Collectors.joining(", "));
  }
}
