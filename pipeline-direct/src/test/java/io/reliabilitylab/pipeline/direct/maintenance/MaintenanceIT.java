package io.reliabilitylab.pipeline.direct.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.ChangelogCompletenessCheck;
import io.reliabilitylab.checks.CurrentChangelogConsistencyCheck;
import io.reliabilitylab.checks.EventIdAuditCheck;
import io.reliabilitylab.checks.NoDuplicateKeysCheck;
import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.direct.DirectPipelineProvider;
import io.reliabilitylab.pipeline.flink.maintenance.IcebergTableMaintenance;
import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.ScenarioOptions;
import io.reliabilitylab.source.mysql.CdcPrerequisites;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.source.mysql.SourceRowReader;
import io.reliabilitylab.source.mysql.WorkloadWriter;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.MaintenanceReport;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.util.SnapshotUtil;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction of {@code orders_current} on the running direct pipeline: twice while a seeded
 * workload streams in, once after catch-up with the job idle, once with the job stopped (by
 * savepoint) before it is restored and the rest of the workload follows. The current table must
 * equal the fold of the changelog at checkpoints committed on top of a rewrite while streaming, the
 * rewrite snapshots themselves must hold the state they started from, the restored sink must find
 * its last committed checkpoint past the rewrite snapshots (nothing expired: no duplicate, no
 * loss), and every check must pass at the end.
 */
class MaintenanceIT {

  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceIT.class);
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final int EVENTS = 8_000;
  // The first part (4,800 events) streams for about 30 s: through a cold compaction (the first
  // local MiniCluster in a busy JVM took up to 15 s) and a warm one with a checkpoint on top.
  private static final double EVENTS_PER_SECOND = 160;

  @TempDir Path run;

  @Test
  void compactionWhileStreamingAfterCatchUpAndWhileStoppedKeepsTheTableState() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(EVENTS, 2026));
    Expectation expected = Oracle.expect(workload);
    List<SourceTransaction> transactions = workload.transactions();
    int streamed = transactions.size() * 6 / 10;
    int beforeStop = transactions.size() * 8 / 10;
    Expectation firstPart = expected.afterTransactions(streamed);
    Expectation secondPart = expected.afterTransactions(beforeStop);

    EmbeddedMariaDb source = EmbeddedMariaDb.shared();
    OrdersTable orders = OrdersTable.in(source);
    orders.reset();
    CdcPrerequisites.verify(source);
    PipelineConfig config =
        new PipelineConfig(source.endpoint(orders.name()), ScenarioOptions.of(run), run);
    Path spill = Files.createDirectories(run.resolve("spill"));
    List<MaintenanceReport> reports = new ArrayList<>();
    List<String> figures = new ArrayList<>();

    ExecutorService writer = Executors.newSingleThreadExecutor(r -> new Thread(r, "it-writer"));
    // Closed in finally, not by try-with-resources: its close() may throw InterruptedException.
    PipelineUnderTest pipeline = new DirectPipelineProvider().start(config);
    try (IcebergWarehouse warehouse =
        IcebergWarehouse.open(Path.of(config.option(LabOptions.WAREHOUSE_PATH).orElseThrow()))) {
      JobControl job = pipeline.capability(JobControl.class).orElseThrow();
      TableAccess tables = pipeline.capability(TableAccess.class).orElseThrow();
      SavepointControl savepoints = pipeline.capability(SavepointControl.class).orElseThrow();
      // What the lead wires into DirectPipeline; built here from the run's warehouse path.
      TableMaintenance maintenance =
          IcebergTableMaintenance.builder(warehouse, OrdersTables.NAMESPACE).build();
      Supplier<Table> current =
          () -> warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
      job.awaitCompletedCheckpointAfter(Instant.now(), DEADLINE);

      // 1. Compaction while the workload streams in.
      Instant writeStart = Instant.now();
      Future<?> writing =
          writer.submit(
              () ->
                  WorkloadWriter.builder(source)
                      .eventsPerSecond(EVENTS_PER_SECOND)
                      .build()
                      .write(transactions.subList(0, streamed)));
      await("orders_current to hold 3 data files", () -> dataFiles(current.get()) >= 3);
      int checkedWhileStreaming = 0;
      for (int round = 1; round <= 3 && !writing.isDone(); round++) {
        MaintenanceReport report = maintenance.compact(OrdersTables.CURRENT);
        reports.add(report);
        figures.add(figure("streaming #" + round, report, !writing.isDone()));
        assertCommittedSafely(report);
        if (round == 1) {
          assertThat(Integer.parseInt(report.details().get("commits_during_rewrite")))
              .as("Flink commits during the rewrite")
              .isPositive();
        }
        // The rewrite snapshot holds the state of the checkpoint it started from...
        Table table = current.get();
        Snapshot rewrite = table.snapshot(report.snapshotAfter());
        long checkpoint = checkpointBefore(table, rewrite);
        assertConsistent(tables, rewrite.snapshotId(), checkpoint, spill, "rewrite snapshot");
        // ...and so is a checkpoint the job commits on top of it while the workload streams.
        Snapshot onTop = awaitFlinkCommitOnTopOf(current, rewrite.snapshotId());
        boolean streamingThen = !writing.isDone();
        assertConsistent(
            tables, onTop.snapshotId(), checkpointOf(onTop), spill, "checkpoint on top");
        checkedWhileStreaming += streamingThen ? 1 : 0;
        figures.add(
            "streaming #"
                + round
                + ": rewrite snapshot consistent with the changelog at checkpoint "
                + checkpoint
                + "; checkpoint "
                + checkpointOf(onTop)
                + " committed on top of it consistent too; workload still writing then: "
                + streamingThen);
      }
      assertThat(checkedWhileStreaming)
          .as("consistency checks at a checkpoint on top of a rewrite while the workload streamed")
          .isPositive();
      writing.get();
      figures.add(
          "workload part 1 ("
              + streamed
              + " transactions) written in "
              + Duration.between(writeStart, Instant.now()).toMillis()
              + " ms");

      // 2. After catch-up, with the job running idle; reconcile before and after.
      CatchUp.Point caughtUp =
          CatchUp.await(
              tables, firstPart.lastWrittenEventId().getAsLong(), DEADLINE, Clock.systemUTC());
      reconcile(
          tables, source, firstPart, caughtUp.current().snapshotId(), caughtUp, spill, "before");
      MaintenanceReport idle = maintenance.compact(OrdersTables.CURRENT);
      reports.add(idle);
      figures.add(figure("after catch-up", idle, false));
      assertCommittedSafely(idle);
      assertCompactedFully(idle);
      reconcile(tables, source, firstPart, idle.snapshotAfter(), caughtUp, spill, "after");

      // 3. With the job stopped; the restored sink must find its last checkpoint past the rewrites.
      WorkloadWriter.to(source).write(transactions.subList(streamed, beforeStop));
      CatchUp.await(
          tables, secondPart.lastWrittenEventId().getAsLong(), DEADLINE, Clock.systemUTC());
      String savepoint = savepoints.stopWithSavepoint(DEADLINE);
      MaintenanceReport stopped = maintenance.compact(OrdersTables.CURRENT);
      reports.add(stopped);
      figures.add(figure("job stopped", stopped, false));
      assertCommittedSafely(stopped);
      assertCompactedFully(stopped);
      assertThat(stopped.conflicts()).isEmpty();
      assertThat(stopped.details()).containsEntry("commits_during_rewrite", "0");
      assertThat(stopped.details().get("flink_committer_lookup")).startsWith("checkpoint ");
      Instant restoreAt = Instant.now();
      savepoints.restore(savepoint, 2);
      WorkloadWriter.to(source).write(transactions.subList(beforeStop, transactions.size()));
      CatchUp.Point end =
          CatchUp.await(
              tables, expected.lastWrittenEventId().getAsLong(), DEADLINE, Clock.systemUTC());
      figures.add(
          "restored from savepoint and caught up with the rest in "
              + Duration.between(restoreAt, end.reachedAt()).toMillis()
              + " ms");
      reconcile(tables, source, expected, end.current().snapshotId(), end, spill, "final");
      assertThat(job.restartCount()).isZero();
    } finally {
      writer.shutdownNow();
      pipeline.close();
      for (String line : figures) {
        LOG.info(line);
        System.out.println("maintenance: " + line);
      }
    }
    assertThat(reports).hasSizeGreaterThanOrEqualTo(3);
  }

  /** A compaction may meet conflicts (recorded), but what it commits must keep every delete. */
  private static void assertCommittedSafely(MaintenanceReport report) {
    assertThat(report.committed()).as(report.toString()).isTrue();
    assertThat(report.details())
        .as(report.toString())
        .containsEntry("data_sequence_number_kept", "true")
        .containsEntry("dropped_concurrent_delete_files", "0");
    assertThat(Integer.parseInt(report.details().get("added_data_files")))
        .as("fewer data files: %s", report)
        .isLessThan(Integer.parseInt(report.details().get("rewritten_data_files")));
  }

  /** Unless others added files meanwhile, only the rewritten files remain, with no delete. */
  private static void assertCompactedFully(MaintenanceReport report) {
    if (report.details().get("commits_during_rewrite_added_data_files").equals("0")) {
      assertThat(report.after())
          .as(report.toString())
          .containsEntry("data_files", Long.valueOf(report.details().get("added_data_files")))
          .containsEntry("applicable_delete_files", 0L);
    }
  }

  private static String figure(String phase, MaintenanceReport report, boolean stillWriting) {
    Map<String, Long> before = report.before();
    Map<String, Long> after = report.after();
    Map<String, String> details = report.details();
    return String.format(
        "%s: %s; %d ms (%s attempt(s)); snapshot %s -> %s; data files %d -> %d; delete files %d"
            + " -> %d (applicable %d -> %d); records %d -> %d; data sequence numbers %s, starting"
            + " %s, committed %s; rewrite snapshot: %s; commits during rewrite %s (adding %s data"
            + " and %s delete files); commit retries %s; conflicts %s; workload still writing: %s;"
            + " committer lookup: %s",
        phase,
        details.get("outcome"),
        Duration.between(report.startedAt(), report.finishedAt()).toMillis(),
        details.get("attempts"),
        report.snapshotBefore(),
        report.snapshotAfter(),
        before.get("data_files"),
        after.get("data_files"),
        before.get("delete_files"),
        after.get("delete_files"),
        before.get("applicable_delete_files"),
        after.get("applicable_delete_files"),
        before.get("records"),
        after.get("records"),
        details.get("added_files_data_sequence_numbers"),
        details.get("starting_sequence_number"),
        details.get("committed_sequence_number"),
        details.get("rewrite_snapshot_changes"),
        details.get("commits_during_rewrite"),
        details.get("commits_during_rewrite_added_data_files"),
        details.get("commits_during_rewrite_added_delete_files"),
        details.get("commit_retries"),
        report.conflicts(),
        stillWriting,
        details.get("flink_committer_lookup"));
  }

  /** Source, oracle and changelog checks on the current table at {@code currentSnapshot}. */
  private static void reconcile(
      TableAccess tables,
      EmbeddedMariaDb source,
      Expectation expected,
      @Nullable Long currentSnapshot,
      CatchUp.Point point,
      Path spill,
      String label)
      throws Exception {
    assertThat(currentSnapshot).isNotNull();
    CheckContext context =
        CheckContext.builder(DeliverySemantics.EXACTLY_ONCE)
            .expectedCurrent(SourceRowReader.orders(source))
            .actualCurrent(tables.current(currentSnapshot))
            .expectedChangelog(expected.changelog())
            .actualChangelog(tables.changelog(point.changelog().snapshotId()))
            .checkpointId(point.checkpointId())
            .workDirectory(spill)
            .build();
    List<ReconciliationCheck> checks =
        List.of(
            new SnapshotDiffCheck(),
            new NoDuplicateKeysCheck(),
            new ChangelogCompletenessCheck(),
            new EventIdAuditCheck(),
            new CurrentChangelogConsistencyCheck());
    for (ReconciliationCheck check : checks) {
      CheckResult result = check.check(context);
      LOG.info("{} {}: {} — {}", label, result.check(), result.verdict(), result.summary());
      assertThat(result.verdict()).as(label + " " + result).isEqualTo(Verdict.PASSED);
    }
    CheckResult againstOracle =
        new SnapshotDiffCheck()
            .check(context.toBuilder().expectedCurrent(expected.current()).build());
    assertThat(againstOracle.verdict()).as(label + " " + againstOracle).isEqualTo(Verdict.PASSED);
  }

  /**
   * The current table at {@code currentSnapshot} equals the fold of the changelog as committed by
   * checkpoint {@code checkpoint}: its latest snapshot of that checkpoint or an earlier one, once
   * the changelog sink has committed that checkpoint.
   */
  private static void assertConsistent(
      TableAccess tables, long currentSnapshot, long checkpoint, Path spill, String label)
      throws Exception {
    SnapshotInfo[] changelog = new SnapshotInfo[1];
    await(
        "orders_changelog to commit checkpoint " + checkpoint,
        () -> {
          changelog[0] = null;
          boolean reached = false;
          for (SnapshotInfo snapshot : tables.snapshots(tables.changelogTable())) {
            Long committed = snapshot.committedCheckpointId();
            if (committed != null && committed >= checkpoint) {
              reached = true;
            }
            if (committed != null && committed <= checkpoint) {
              changelog[0] = snapshot;
            }
          }
          return reached && changelog[0] != null;
        });
    CheckResult result =
        new CurrentChangelogConsistencyCheck()
            .check(
                CheckContext.builder(DeliverySemantics.EXACTLY_ONCE)
                    .actualCurrent(tables.current(currentSnapshot))
                    .actualChangelog(tables.changelog(changelog[0].snapshotId()))
                    .checkpointId(checkpoint)
                    .workDirectory(spill)
                    .build());
    LOG.info("{}: {} — {}", label, result.verdict(), result.summary());
    assertThat(result.verdict()).as(label + " " + result).isEqualTo(Verdict.PASSED);
  }

  /** The checkpoint of the nearest snapshot at or before {@code snapshot} that Flink committed. */
  private static long checkpointBefore(Table table, Snapshot snapshot) {
    for (Snapshot s = snapshot;
        s != null;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      Long checkpoint = IcebergTableReader.info(table, s).committedCheckpointId();
      if (checkpoint != null) {
        return checkpoint;
      }
    }
    throw new AssertionError("No Flink commit before snapshot " + snapshot.snapshotId());
  }

  private static long checkpointOf(Snapshot snapshot) {
    return Long.parseLong(
        snapshot.summary().get(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID));
  }

  private static Snapshot awaitFlinkCommitOnTopOf(Supplier<Table> tables, long rewrite)
      throws Exception {
    Snapshot[] found = new Snapshot[1];
    await(
        "a Flink commit on top of rewrite " + rewrite,
        () -> {
          Table table = tables.get();
          Snapshot latest = table.currentSnapshot();
          if (latest != null
              && latest.snapshotId() != rewrite
              && latest.summary().containsKey(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID)
              && SnapshotUtil.isAncestorOf(table, latest.snapshotId(), rewrite)) {
            found[0] = latest;
          }
          return found[0] != null;
        });
    return found[0];
  }

  private static long dataFiles(Table table) {
    Snapshot snapshot = table.currentSnapshot();
    String files = snapshot == null ? null : snapshot.summary().get("total-data-files");
    return files == null ? 0 : Long.parseLong(files);
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void await(String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("Waited " + DEADLINE + " for " + what);
      }
      Thread.sleep(50);
    }
  }
}
