package io.reliabilitylab.faults;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@code savepoint-restore:older-savepoint}, the shape of apache/iceberg#10892: savepoint S1
 * (checkpoint n) is taken while the job keeps running; the job commits further checkpoints up to m
 * (at least {@value #COMMITS_AFTER_SAVEPOINT} more); its cluster is lost and the job is restored
 * from S1 <em>under the same job id</em>, as Flink's application mode does.
 *
 * <p>Why that loses data with Iceberg 1.10's {@code IcebergFilesCommitter}: on restore it looks up
 * {@code flink.max-committed-checkpoint-id} for the job id in the state, finds m, and Flink numbers
 * the restored job's checkpoints from n + 1; a checkpoint id not above m is "already committed", so
 * its commit is skipped and its files stay pending in the state. The fault then fails the job once
 * (the {@code operator} fault point, armed before the restore, throws in the synchronous part of
 * checkpoint n + 2), so it restores from checkpoint n + 1 (at most m): {@code initializeState}
 * keeps only pending files of checkpoints above m and drops the skipped ones, and the source
 * resumes after them. The changes the restored job read beyond the old job's position at m are lost
 * from both tables.
 *
 * <p>The throw is placed at a checkpoint rather than on an element so that it fires whether or not
 * the workload still writes. Steps after S1 run while the proof is polled; the proof holds once the
 * failure carrying the fault id restarted the restored job. The evidence lists n, m, the restored
 * job id (equal to the old one), the checkpoints whose commits were skipped and the failure.
 */
final class OlderSavepointRestore {

  /**
   * How many checkpoints the job commits after S1 before its cluster is lost: at least two, so the
   * restored job's first checkpoints are at most m and one interval is left to fail it in.
   */
  static final int COMMITS_AFTER_SAVEPOINT = 2;

  private OlderSavepointRestore() {}

  static FaultHandle start(
      FaultContext context, PipelineView view, SavepointControl savepoints, int parallelism)
      throws Exception {
    FaultPoints points = view.faultPoints().orElseThrow();
    Observation baseline = view.observe();
    String jobId = baseline.jobId();
    String savepoint;
    try {
      savepoint = savepoints.triggerSavepoint(context.timeout());
    } catch (UnsupportedOperationException e) {
      return BuiltInFault.skipped(
          context,
          "pipeline '"
              + context.pipeline().name()
              + "' cannot take a savepoint without stopping its job: "
              + e.getMessage());
    }
    Instant savedAt = context.clock().instant();
    Map<String, String> details = new LinkedHashMap<>();
    details.put(SavepointRestoreInjector.FROM, SavepointRestoreInjector.OLDER_SAVEPOINT);
    details.put("job_id", jobId);
    details.put("savepoint_path", savepoint);
    details.put("max_committed_at_savepoint", Long.toString(maxCommitted(baseline, jobId)));
    Steps steps = new Steps(context, view, savepoints, points, jobId, savepoint, parallelism);
    return ProvenFault.builder(context, view, baseline)
        .what(
            "savepoint "
                + savepoint
                + " taken while running, later commits, cluster lost, restored from it under the"
                + " same job id, then one failure")
        .details(details)
        .proof((before, now) -> steps.advance(now, savedAt))
        .healing(steps::finish)
        .build();
  }

  /** The fault's steps after the savepoint, driven by the proof's polling. */
  private static final class Steps {
    private final FaultContext context;
    private final PipelineView view;
    private final SavepointControl savepoints;
    private final FaultPoints points;
    private final String jobId;
    private final String savepoint;
    private final int parallelism;
    private long savepointId = -1;
    private final Map<String, String> learnt = new LinkedHashMap<>();
    private long maxCommitted = -1;
    private boolean lost;
    private @Nullable String restoredJob;
    private boolean armed;
    private Instant lostAt = Instant.MAX;
    private Instant restoringAt = Instant.MAX;

    Steps(
        FaultContext context,
        PipelineView view,
        SavepointControl savepoints,
        FaultPoints points,
        String jobId,
        String savepoint,
        int parallelism) {
      this.context = context;
      this.view = view;
      this.savepoints = savepoints;
      this.points = points;
      this.jobId = jobId;
      this.savepoint = savepoint;
      this.parallelism = parallelism;
    }

    synchronized ProofVerdict advance(Observation now, Instant savedAt) throws Exception {
      if (savepointId < 0) {
        // the cluster's checkpoint statistics may show the savepoint only a moment later
        savepointId = savepointId(now, savepoint).orElse(-1);
        if (savepointId < 0) {
          return ProofVerdict.pending(
              "savepoint " + savepoint + " is not in job " + jobId + "'s checkpoint history yet");
        }
        learnt.put("savepoint_checkpoint_id", Long.toString(savepointId));
      }
      if (restoredJob == null) {
        // both sinks must be past the savepoint: a lagging one would commit the restored job's
        // first checkpoint (a rewind, not the hazard)
        long committed =
            Math.min(maxCommitted(now, jobId), maxCommitted(changelogSnapshots(), jobId));
        if (committed < savepointId + COMMITS_AFTER_SAVEPOINT) {
          return ProofVerdict.pending(
              "job "
                  + jobId
                  + " committed up to checkpoint "
                  + committed
                  + "; waiting for "
                  + (savepointId + COMMITS_AFTER_SAVEPOINT)
                  + " (savepoint at "
                  + savepointId
                  + ")");
        }
        return loseAndRestore();
      }
      // the restored job runs on a fresh cluster: no restart and no failure before the fault's
      Observation fresh =
          new Observation(lostAt, jobId, now.state(), 0, List.of(), List.of(), null, null, null);
      ProofVerdict failover = Proofs.failoverCarrying(context.spec().id(), 1).judge(fresh, now);
      if (!(failover instanceof ProofVerdict.Proven proven)) {
        return failover;
      }
      List<Long> skipped =
          now.checkpoints().stream()
              // the restored job's own checkpoints, not the old job's under the same id
              .filter(c -> !c.triggeredAt().isBefore(lostAt))
              .filter(c -> c.completed() && !c.savepoint() && c.id() > savepointId)
              .filter(c -> c.finishedAt() == null || !c.finishedAt().isAfter(proven.firedAt()))
              .map(CheckpointInfo::id)
              .sorted()
              .toList();
      if (skipped.isEmpty()) {
        return ProofVerdict.refuted(
            "the restored job failed before it completed a checkpoint: it restores from the"
                + " savepoint again and has no skipped commit to lose");
      }
      long restoreFrom = skipped.get(skipped.size() - 1);
      if (restoreFrom > maxCommitted) {
        return ProofVerdict.refuted(
            "the restored job completed checkpoint "
                + restoreFrom
                + ", above the max committed checkpoint "
                + maxCommitted
                + ", before it failed: its commit was not skipped, the hazard did not arise");
      }
      String skippedIds = skipped.stream().map(String::valueOf).collect(Collectors.joining(", "));
      List<String> proofs = new ArrayList<>();
      proofs.add(
          "savepoint "
              + savepoint
              + " (checkpoint "
              + savepointId
              + ") was taken at "
              + savedAt
              + " while job "
              + jobId
              + " kept running");
      proofs.add(
          "job "
              + jobId
              + " then committed up to checkpoint "
              + maxCommitted
              + " (flink.max-committed-checkpoint-id) before its cluster was lost");
      proofs.add(
          "the job was restored from the savepoint under the same job id "
              + restoredJob
              + " and completed checkpoints "
              + skippedIds
              + ", all at most "
              + maxCommitted
              + ": the sink skipped their commits");
      proofs.addAll(proven.proofs());
      Map<String, String> found = new LinkedHashMap<>(learnt);
      found.putAll(proven.details());
      found.put("skipped_commit_checkpoints", skippedIds);
      found.put("failover_restores_from_checkpoint_at_most", Long.toString(restoreFrom));
      found.put("restored_job_commits_before_failure", restoredCommits(now, proven.firedAt()));
      return ProofVerdict.proven(proven.firedAt(), proofs, found);
    }

    private ProofVerdict loseAndRestore() {
      try {
        lostAt = context.clock().instant();
        savepoints.loseCluster();
        lost = true;
        // the old job may still commit while its cluster goes down: only later commits are the
        // restored job's
        restoringAt = context.clock().instant();
        long current = maxCommitted(view.currentSnapshots(), jobId);
        long changelog = maxCommitted(changelogSnapshots(), jobId);
        maxCommitted = Math.min(current, changelog);
        learnt.put("max_committed_before_outage", Long.toString(maxCommitted));
        learnt.put("max_committed_before_outage_current", Long.toString(current));
        learnt.put("max_committed_before_outage_changelog", Long.toString(changelog));
        learnt.put("cluster_lost_at", lostAt.toString());
        // armed before the restore, so no checkpoint above the max committed one can complete
        // first: the restored job fails in the synchronous part of its second checkpoint and
        // restores from its first, whose commit was skipped
        FaultPosition at = new FaultPosition.AtCheckpoint(savepointId + 2);
        points.arm(BuiltInFault.OPERATOR, at, BuiltInFault.THROW, context.spec().id());
        armed = true;
        learnt.put("failure_fault_point", BuiltInFault.OPERATOR);
        learnt.put("failure_position", at.text());
        String restored = savepoints.restoreKeepingJobId(savepoint, parallelism);
        restoredJob = restored;
        lost = false;
        learnt.put("restored_job_id", restored);
        learnt.put("restored_at", context.clock().instant().toString());
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        return ProofVerdict.refuted(
            "losing the cluster of job "
                + jobId
                + " or restoring it from "
                + savepoint
                + " under the same job id failed: "
                + e);
      }
      if (!jobId.equals(restoredJob)) {
        return ProofVerdict.refuted(
            "the pipeline restored the job as "
                + restoredJob
                + ", not under its id "
                + jobId
                + ": the hazard needs the same job id");
      }
      return ProofVerdict.pending("restored job " + restoredJob + " has not failed yet");
    }

    private @Nullable List<SnapshotInfo> changelogSnapshots() {
      try {
        return view.tables().isEmpty()
            ? null
            : view.tables().get().snapshots(view.tables().get().changelogTable());
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        return null;
      }
    }

    /** The commits the restored job made before the failure: none, as its commits were skipped. */
    private String restoredCommits(Observation now, Instant failedAt) {
      List<SnapshotInfo> snapshots = now.snapshots();
      if (snapshots == null) {
        return "not observable";
      }
      String committed =
          snapshots.stream()
              .filter(s -> jobId.equals(s.flinkJobId()) && s.committedCheckpointId() != null)
              .filter(
                  s -> s.committedAt().isAfter(restoringAt) && s.committedAt().isBefore(failedAt))
              .map(s -> s.snapshotId() + ":" + s.committedCheckpointId())
              .collect(Collectors.joining(", "));
      return committed.isEmpty() ? "none" : committed;
    }

    /** On close: disarm, and a job must run again if the fault stopped between steps. */
    synchronized void finish() throws Exception {
      if (armed) {
        points.disarm(context.spec().id());
      }
      if (lost) {
        restoredJob = savepoints.restore(savepoint, parallelism);
        lost = false;
      }
    }
  }

  private static long maxCommitted(Observation observation, String jobId) {
    return maxCommitted(observation.snapshots(), jobId);
  }

  private static long maxCommitted(@Nullable List<SnapshotInfo> snapshots, String jobId) {
    if (snapshots == null) {
      return -1;
    }
    return snapshots.stream()
        .filter(s -> jobId.equals(s.flinkJobId()) && s.committedCheckpointId() != null)
        .mapToLong(s -> s.committedCheckpointId() == null ? -1 : s.committedCheckpointId())
        .max()
        .orElse(-1);
  }

  /** The savepoint's checkpoint id: the one with its path, else the latest completed savepoint. */
  private static OptionalLong savepointId(Observation now, String path) {
    List<CheckpointInfo> savepoints =
        now.checkpoints().stream().filter(c -> c.savepoint() && c.completed()).toList();
    OptionalLong byPath =
        savepoints.stream()
            .filter(c -> c.externalPath() != null && sameLocation(c.externalPath(), path))
            .mapToLong(CheckpointInfo::id)
            .max();
    return byPath.isPresent() ? byPath : savepoints.stream().mapToLong(CheckpointInfo::id).max();
  }

  private static boolean sameLocation(String a, String b) {
    return strip(a).equals(strip(b));
  }

  private static String strip(String path) {
    String withoutScheme = path.startsWith("file:") ? path.substring("file:".length()) : path;
    String trimmed = withoutScheme.replaceFirst("^/+", "/");
    return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }
}
