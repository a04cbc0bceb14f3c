package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.CurrentChangelogConsistencyCheck;
import io.reliabilitylab.record.ExerciseRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.MaintenanceReport;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code compaction}: the sink's table maintenance rewrites the current table's small files while
 * the pipeline keeps streaming into it, and once more after the workload stopped and the sink
 * caught up. Each run is recorded with the table's data- and delete-file counts before and after
 * and every commit conflict it met.
 *
 * <p>Checks, besides the scenario's final reconciliation: a rewrite kept the table's content (the
 * rows at the rewrite's snapshot equal those at its parent: {@code compaction:content-kept}), and
 * the current table agrees with the changelog at a checkpoint while streaming, after the first
 * rewrite ({@code compaction:current-changelog-consistency}).
 */
@API(status = EXPERIMENTAL)
public final class CompactionExercise implements Exercise {

  private static final Duration POLL = Duration.ofMillis(200);

  /** How long the streaming half takes to write: long enough for the rewrite to race commits. */
  private static final Duration WRITE_SPAN = Duration.ofSeconds(8);

  @Override
  public String name() {
    return "compaction";
  }

  @Override
  public void run(ExerciseContext context) throws Exception {
    PipelineUnderTest pipeline = context.pipeline();
    TableMaintenance maintenance =
        Capabilities.require(pipeline, TableMaintenance.class, "to compact its tables");
    TableAccess tables = Capabilities.require(pipeline, TableAccess.class, "for compaction");
    JobControl job = Capabilities.require(pipeline, JobControl.class, "for compaction");
    RunRecord.Builder record = context.record();

    try (BackgroundWrites writes =
        new BackgroundWrites("lab-compaction-writer", context.timeout())) {
      // Paced, so the pipeline still streams while the rewrite runs; unpaced the rest would be
      // written (and committed) before the rewrite starts.
      ChangeWriter paced = BackgroundWrites.paced(context.source(), context.rest(), WRITE_SPAN);
      Future<?> writing = writes.submit(() -> paced.write(context.rest()));
      // Let the sink commit a few checkpoints of the streaming half first, so the rewrite races
      // real commits with equality deletes.
      awaitNewCommits(tables, job, 2, context);
      MaintenanceReport streaming = maintenance.compact(tables.currentTable());
      record(record, "compaction:streaming", streaming, writing.isDone());
      contentKept(context, tables, streaming, "streaming");
      consistentWhileStreaming(context, tables);
      writes.await(writing);
    }

    context.awaitCatchUp();
    MaintenanceReport stopped = maintenance.compact(tables.currentTable());
    record(record, "compaction:after-stop", stopped, true);
    contentKept(context, tables, stopped, "after-stop");
  }

  private static void awaitNewCommits(
      TableAccess tables, JobControl job, int commits, ExerciseContext context) throws Exception {
    int before = tables.snapshots(tables.currentTable()).size();
    Instant deadline = context.clock().instant().plus(context.timeout());
    while (tables.snapshots(tables.currentTable()).size() < before + commits) {
      if (context.clock().instant().isAfter(deadline)) {
        throw new WaitTimedOutException(
            "The current table committed no "
                + commits
                + " new snapshots within "
                + context.timeout().toSeconds()
                + " s while streaming; job "
                + job.jobId()
                + " is "
                + job.state());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private static void record(
      RunRecord.Builder record, String name, MaintenanceReport report, boolean writerDone) {
    ExerciseRecord.Builder exercise = ExerciseRecord.builder(name, report.startedAt());
    report.before().forEach((key, value) -> exercise.figure(key + "_before", value));
    report.after().forEach((key, value) -> exercise.figure(key + "_after", value));
    exercise
        .figure("conflicts", report.conflicts().size())
        .figure("duration_ms", Duration.between(report.startedAt(), report.finishedAt()).toMillis())
        .fact("table", report.table())
        .fact("action", report.action())
        .fact("snapshot_before", String.valueOf(report.snapshotBefore()))
        .fact("snapshot_after", String.valueOf(report.snapshotAfter()))
        .fact("committed", Boolean.toString(report.committed()))
        .fact("while_streaming", Boolean.toString(!writerDone));
    for (int i = 0; i < report.conflicts().size(); i++) {
      exercise.fact("conflict_" + (i + 1), report.conflicts().get(i));
    }
    report.details().forEach((key, value) -> exercise.fact("detail." + key, value));
    record.exercise(exercise.build(report.finishedAt()));
  }

  /** The rewrite's snapshot holds exactly the rows of its parent: compaction changes no content. */
  private static void contentKept(
      ExerciseContext context, TableAccess tables, MaintenanceReport report, String when)
      throws Exception {
    String check = "compaction:content-kept:" + when;
    if (report.snapshotAfter() == null) {
      // Nothing committed: fine when there was nothing worth rewriting, not when conflicts won.
      Evidence evidence =
          Evidence.builder()
              .fact("table", report.table())
              .count("conflicts", report.conflicts().size())
              .build();
      context
          .record()
          .check(
              report.conflicts().isEmpty()
                  ? CheckResult.passed(
                      check,
                      "the rewrite found nothing worth rewriting ("
                          + report.before()
                          + "), so the table was left as it was",
                      evidence)
                  : CheckResult.inconclusive(
                      check,
                      "the rewrite committed nothing after "
                          + report.conflicts().size()
                          + " commit conflict(s), so there is no rewritten snapshot to compare",
                      evidence));
      return;
    }
    List<SnapshotInfo> snapshots = tables.snapshots(tables.currentTable());
    Optional<SnapshotInfo> parent = parentOf(snapshots, report.snapshotAfter());
    if (parent.isEmpty()) {
      context
          .record()
          .check(
              CheckResult.inconclusive(
                  check,
                  "the rewrite's snapshot "
                      + report.snapshotAfter()
                      + " or its parent is not in the table's history",
                  Evidence.NONE));
      return;
    }
    Path spill = Files.createDirectories(context.directory().resolve("spill-" + when));
    CheckResult diff =
        RowSetDiff.of(
            context.pipeline().semantics(),
            tables.current(parent.get().snapshotId()),
            tables.current(report.snapshotAfter()),
            spill);
    context
        .record()
        .check(
            new CheckResult(
                check,
                diff.verdict(),
                "rows at rewrite snapshot "
                    + report.snapshotAfter()
                    + " against its parent "
                    + parent.get().snapshotId()
                    + ": "
                    + diff.summary(),
                diff.evidence()));
  }

  /**
   * Current ↔ changelog consistency at the latest checkpoint both tables committed, read while the
   * workload still streams and after the rewrite.
   */
  private static void consistentWhileStreaming(ExerciseContext context, TableAccess tables)
      throws Exception {
    String check = "compaction:current-changelog-consistency";
    List<SnapshotInfo> current = tables.snapshots(tables.currentTable());
    List<SnapshotInfo> changelog = tables.snapshots(tables.changelogTable());
    for (int i = current.size() - 1; i >= 0; i--) {
      Long checkpoint = effectiveCheckpoint(current, i);
      if (checkpoint == null) {
        continue;
      }
      for (SnapshotInfo candidate : changelog) {
        if (checkpoint.equals(candidate.committedCheckpointId())) {
          Path spill = Files.createDirectories(context.directory().resolve("spill-consistency"));
          CheckResult result =
              new CurrentChangelogConsistencyCheck()
                  .check(
                      CheckContext.builder(context.pipeline().semantics())
                          .actualCurrent(tables.current(current.get(i).snapshotId()))
                          .actualChangelog(tables.changelog(candidate.snapshotId()))
                          .checkpointId(checkpoint)
                          .workDirectory(spill)
                          .build());
          context
              .record()
              .check(
                  new CheckResult(
                      check,
                      result.verdict(),
                      "at checkpoint "
                          + checkpoint
                          + " while streaming (current snapshot "
                          + current.get(i).snapshotId()
                          + ", changelog snapshot "
                          + candidate.snapshotId()
                          + "): "
                          + result.summary(),
                      result.evidence()));
          return;
        }
      }
    }
    context
        .record()
        .check(
            CheckResult.inconclusive(
                check, "no checkpoint was committed to both tables yet", Evidence.NONE));
  }

  /**
   * The checkpoint a snapshot's content belongs to: its own, or — for a maintenance snapshot, which
   * carries none — the latest one committed before it.
   */
  static @Nullable Long effectiveCheckpoint(List<SnapshotInfo> snapshots, int index) {
    for (int i = index; i >= 0; i--) {
      Long id = snapshots.get(i).committedCheckpointId();
      if (id != null) {
        return id;
      }
    }
    return null;
  }

  private static Optional<SnapshotInfo> parentOf(List<SnapshotInfo> snapshots, long snapshotId) {
    for (int i = 1; i < snapshots.size(); i++) {
      if (snapshots.get(i).snapshotId() == snapshotId) {
        return Optional.of(snapshots.get(i - 1));
      }
    }
    return Optional.empty();
  }
}
