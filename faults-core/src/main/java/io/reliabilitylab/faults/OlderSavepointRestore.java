package io.reliabilitylab.faults;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@code savepoint-restore} with {@code from=older-savepoint}: job A is stopped with savepoint S1;
 * B is restored from S1 and, while the workload keeps writing, commits at least {@value
 * #COMMITS_AFTER_OLDER} checkpoints; B is stopped with savepoint S2; then C is restored from the
 * older S1. The first two steps happen on injection, the last two once B's commits are seen.
 *
 * <p>This is the shape of apache/iceberg#10892 ("restoring from an older savepoint after later
 * commits"), but on a pipeline whose restore starts a new job id it cannot lose data with Iceberg
 * 1.10's {@code IcebergFilesCommitter}: C's committer looks up {@code
 * flink.max-committed-checkpoint-id} for the job id stored in S1 (A's), which is S1's own
 * checkpoint (A committed nothing after it), and Flink numbers C's checkpoints from S1's + 1, so C
 * holds nothing back and commits every checkpoint. What does happen is a rewind: C reads the source
 * again from S1's position, so the changes B committed after S1 are delivered again (duplicates in
 * an append-only changelog; an upsert table absorbs them). The committer's skip path ({@code
 * checkpointId > maxCommittedCheckpointId} false, files kept pending, then dropped by a restore
 * that finds the same job id's higher maximum) needs commits under the restored state's job id
 * after the restored checkpoint: a savepoint taken without stopping, a retained checkpoint older
 * than the latest, or a restore that keeps the job id. The evidence lists every job, savepoint,
 * checkpoint and committed snapshot so the record shows which case ran.
 */
final class OlderSavepointRestore {

  /** How many checkpoints the job restored from S1 commits before it is stopped again. */
  static final int COMMITS_AFTER_OLDER = 2;

  /** How long the recovery waits for job C's first changelog commit to count re-deliveries. */
  private static final Duration CHANGELOG_WAIT = Duration.ofSeconds(15);

  private OlderSavepointRestore() {}

  static FaultHandle start(
      FaultContext context, PipelineView view, SavepointControl savepoints, int current, int target)
      throws Exception {
    Observation baseline = view.observe();
    String jobA = baseline.jobId();
    String older = savepoints.stopWithSavepoint(context.timeout());
    Instant olderAt = context.clock().instant();
    OptionalLong olderCheckpoint = latestSavepointId(view);
    Map<String, String> details = new LinkedHashMap<>();
    details.put(SavepointRestoreInjector.FROM, SavepointRestoreInjector.OLDER_SAVEPOINT);
    details.put("job_a", jobA);
    details.put("older_savepoint_path", older);
    olderCheckpoint.ifPresent(
        id -> details.put("older_savepoint_checkpoint_id", Long.toString(id)));
    String jobB = savepoints.restore(older, current);
    details.put("job_b", jobB);
    Map<String, String> learnt = new ConcurrentHashMap<>();
    Rewind rewind = new Rewind(savepoints, older, jobA, jobB, target, context, view, learnt);
    return FaultRun.builder(context, view, baseline)
        .what("restored the job from the older of two savepoints, after later commits")
        .details(details)
        .proof(
            (before, now) -> {
              Verdict step = rewind.advance();
              if (step != null) {
                return step;
              }
              String jobC = rewind.jobC();
              if (!now.jobId().equals(jobC)) {
                return Verdict.pending("the pipeline runs job " + now.jobId() + ", not " + jobC);
              }
              if (now.state() != JobState.RUNNING) {
                return Verdict.pending("job " + jobC + " is " + now.state());
              }
              List<String> proofs = new ArrayList<>();
              proofs.add(
                  "job "
                      + jobA
                      + " was stopped with the older savepoint "
                      + older
                      + olderCheckpoint.stream()
                          .mapToObj(id -> " (checkpoint " + id + ")")
                          .findFirst()
                          .orElse(""));
              proofs.add(
                  "job "
                      + jobB
                      + ", restored from it, committed "
                      + learnt.get("job_b_commits")
                      + " (snapshot:flink.max-committed-checkpoint-id) and was stopped with the"
                      + " newer savepoint "
                      + learnt.get("newer_savepoint_path")
                      + " (checkpoint "
                      + learnt.getOrDefault("newer_savepoint_checkpoint_id", "?")
                      + ")");
              proofs.add(
                  "job " + jobC + ", restored from the older savepoint " + older + ", is RUNNING");
              Map<String, String> found = new LinkedHashMap<>(learnt);
              found.put("new_job_id", jobC);
              return Verdict.proven(olderAt, proofs, found);
            })
        .healing(rewind::finish, false)
        .recoveryDetails(
            recovered -> {
              Map<String, String> found = new LinkedHashMap<>();
              String jobC = rewind.jobC();
              if (jobC == null) {
                return found;
              }
              List<SnapshotInfo> byC = commitsBy(view, jobC);
              found.put("job_c_commits", describe(byC));
              byC.stream()
                  .map(SnapshotInfo::committedCheckpointId)
                  .filter(id -> id != null)
                  .findFirst()
                  .ifPresent(id -> found.put("job_c_first_committed_checkpoint_id", id.toString()));
              try {
                found.putAll(redelivered(view, rewind.changelogBeforeC()));
              } catch (InterruptedException e) {
                throw e;
              } catch (Exception e) {
                // the commits above are the record; the count is a further measurement
                found.put("job_c_redelivered_changes", "not measured: " + e);
              }
              return found;
            })
        .build();
  }

  /** The second half of the fault: stop B once it committed, restore C from the older savepoint. */
  private static final class Rewind {
    private final SavepointControl savepoints;
    private final String older;
    private final String jobA;
    private final String jobB;
    private final int target;
    private final FaultContext context;
    private final PipelineView view;
    private final Map<String, String> learnt;
    private @Nullable String jobC;
    private @Nullable String problem;
    private @Nullable Long changelogBeforeC;

    Rewind(
        SavepointControl savepoints,
        String older,
        String jobA,
        String jobB,
        int target,
        FaultContext context,
        PipelineView view,
        Map<String, String> learnt) {
      this.savepoints = savepoints;
      this.older = older;
      this.jobA = jobA;
      this.jobB = jobB;
      this.target = target;
      this.context = context;
      this.view = view;
      this.learnt = learnt;
    }

    synchronized @Nullable String jobC() {
      return jobC;
    }

    synchronized @Nullable Long changelogBeforeC() {
      return changelogBeforeC;
    }

    /**
     * Pending until B committed enough, then stops B and restores C; null once C was restored,
     * refuted when a step failed.
     */
    synchronized @Nullable Verdict advance() {
      if (problem != null) {
        return Verdict.refuted(problem);
      }
      if (jobC != null) {
        return null;
      }
      List<SnapshotInfo> committedByB = commitsBy(view, jobB);
      if (committedByB.size() < COMMITS_AFTER_OLDER) {
        return Verdict.pending(
            "job "
                + jobB
                + ", restored from the older savepoint, committed "
                + committedByB.size()
                + " of "
                + COMMITS_AFTER_OLDER
                + " checkpoints so far");
      }
      learnt.put("job_b_commits", describe(committedByB));
      try {
        String newer = savepoints.stopWithSavepoint(context.timeout());
        learnt.put("newer_savepoint_path", newer);
        latestSavepointId(view)
            .ifPresent(id -> learnt.put("newer_savepoint_checkpoint_id", Long.toString(id)));
        learnt.put("job_b_commits", describe(commitsBy(view, jobB)));
        learnt.put("job_a_max_committed_checkpoint_id", Long.toString(maxCommitted(view, jobA)));
        changelogBeforeC = latestChangelogSnapshot(view);
        learnt.put("changelog_snapshot_before_job_c", String.valueOf(changelogBeforeC));
        jobC = savepoints.restore(older, target);
        learnt.put("job_c", jobC);
        learnt.put("restored_from", "the older savepoint " + older);
        return null;
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        problem = "stopping job " + jobB + " or restoring the older savepoint failed: " + e;
        return Verdict.refuted(problem);
      }
    }

    /** On close: a job must run again, whichever step the fault reached. */
    synchronized void finish() throws Exception {
      if (jobC == null && view.job().state().isTerminal()) {
        jobC = savepoints.restore(older, target);
      }
    }
  }

  /**
   * What job C appended to the changelog that was there before it started: the changes the rewind
   * delivered a second time.
   */
  private static Map<String, String> redelivered(PipelineView view, @Nullable Long before)
      throws Exception {
    Map<String, String> found = new LinkedHashMap<>();
    Optional<TableAccess> access = view.tables();
    if (access.isEmpty() || before == null) {
      return found;
    }
    // the changelog's committer commits on its own, maybe just after the current table's
    long deadline = System.nanoTime() + CHANGELOG_WAIT.toNanos();
    Long latest = latestChangelogSnapshot(view);
    while ((latest == null || latest.equals(before)) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      latest = latestChangelogSnapshot(view);
    }
    if (latest == null || latest.equals(before)) {
      found.put(
          "job_c_redelivered_changes",
          "not measured: job C committed nothing to the changelog within " + CHANGELOG_WAIT);
      return found;
    }
    Set<String> committed = new HashSet<>();
    try (CloseableIterator<ChangeEvent> events = access.get().changelog(before).open()) {
      while (events.hasNext()) {
        committed.add(events.next().identity());
      }
    }
    long appended = 0;
    List<String> again = new ArrayList<>();
    try (CloseableIterator<ChangeEvent> events =
        access.get().changelogAppended(before, latest).open()) {
      while (events.hasNext()) {
        String identity = events.next().identity();
        appended++;
        if (committed.contains(identity)) {
          again.add(identity);
        }
      }
    }
    found.put("job_c_changelog_rows_appended", Long.toString(appended));
    found.put("job_c_redelivered_changes", Integer.toString(again.size()));
    found.put(
        "job_c_redelivered_sample", again.stream().limit(5).collect(Collectors.joining(", ")));
    return found;
  }

  private static @Nullable Long latestChangelogSnapshot(PipelineView view) {
    Optional<TableAccess> access = view.tables();
    if (access.isEmpty()) {
      return null;
    }
    try {
      List<SnapshotInfo> snapshots = access.get().snapshots(access.get().changelogTable());
      return snapshots.isEmpty() ? null : snapshots.get(snapshots.size() - 1).snapshotId();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return null;
    }
  }

  private static List<SnapshotInfo> commitsBy(PipelineView view, String job) {
    List<SnapshotInfo> snapshots = view.currentSnapshots();
    if (snapshots == null) {
      return List.of();
    }
    return snapshots.stream()
        .filter(s -> job.equals(s.flinkJobId()) && s.committedCheckpointId() != null)
        .toList();
  }

  private static long maxCommitted(PipelineView view, String job) {
    return commitsBy(view, job).stream()
        .mapToLong(s -> s.committedCheckpointId() == null ? -1 : s.committedCheckpointId())
        .max()
        .orElse(-1);
  }

  private static OptionalLong latestSavepointId(PipelineView view) {
    try {
      return view.job().checkpoints().stream()
          .filter(c -> c.savepoint() && c.completed())
          .mapToLong(CheckpointInfo::id)
          .max();
    } catch (RuntimeException e) {
      // a stopped job's history may be gone: the path alone identifies the savepoint
      return OptionalLong.empty();
    }
  }

  private static String describe(List<SnapshotInfo> snapshots) {
    return snapshots.isEmpty()
        ? "none"
        : snapshots.stream()
            .map(s -> s.snapshotId() + ":" + s.committedCheckpointId())
            .collect(Collectors.joining(", "));
  }
}
