package io.reliabilitylab.pipeline.direct.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.faults.CoordinatorFailureInjector;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioOptions;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.CdcPrerequisites;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.source.mysql.SourceRowReader;
import io.reliabilitylab.source.mysql.WorkloadWriter;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster dies: the direct pipeline streams part of the workload, its embedded MiniCluster is
 * stopped without a savepoint, the job is restored from the latest retained checkpoint found on the
 * checkpoint storage on a fresh MiniCluster under a new job id, the rest of the workload streams,
 * and every check passes on the final state.
 */
class ClusterLossIT {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterLossIT.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path runDirectory;

  @Test
  void coordinatorFailureModeClusterDiesIsProvenRecoveredAndReconciled() throws Exception {
    RunRecord record =
        FaultScenarios.run(
            runDirectory.resolve("runs"),
            new PlannedFault(
                "coordinator-failure",
                null,
                Map.of(CoordinatorFailureInjector.MODE, CoordinatorFailureInjector.CLUSTER_DIES)),
            1_000,
            19);

    FaultScenarios.assertAllChecksPassed(record);
    FaultRecord fault = record.faults().get(0);
    assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.evidence().details())
        .containsEntry(
            "claim_boundary",
            "the embedded MiniCluster is shut down inside the JVM"
                + " without a savepoint (its job is suspended, its retained checkpoints stay); the JVM"
                + " and its process are not killed")
        .containsKeys("retained_checkpoint_path", "restored_job_id");
    assertThat(fault.recovery()).isNotNull();
    assertThat(fault.recovery().recovered()).isTrue();
  }

  @Test
  void theJobIsRestoredFromItsRetainedCheckpointOnAFreshClusterAndReconciles() throws Exception {
    EmbeddedMariaDb source = EmbeddedMariaDb.shared();
    OrdersTable table = OrdersTable.in(source);
    table.reset();
    CdcPrerequisites.verify(source);
    ClassLoader classLoader = getClass().getClassLoader();
    PipelineProvider provider = Discovered.pipelines(classLoader).requireNoProblems().get("direct");
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(1_200, 17));
    List<SourceTransaction> transactions = workload.transactions();
    int third = transactions.size() / 3;
    Clock clock = Clock.systemUTC();

    PipelineUnderTest pipeline =
        provider.start(
            new PipelineConfig(
                source.endpoint(table.name()), ScenarioOptions.of(runDirectory), runDirectory));
    try {
      JobControl job = pipeline.capability(JobControl.class).orElseThrow();
      TableAccess tables = pipeline.capability(TableAccess.class).orElseThrow();
      SavepointControl savepoints = pipeline.capability(SavepointControl.class).orElseThrow();
      assertThat(pipeline.effectiveConfiguration())
          .containsKey(CoordinatorFailureInjector.CLAIM_BOUNDARY_KEY);

      // A first part, committed by a checkpoint; then a second part, written right before the
      // cluster dies, so that the restored job reads some of it again from its checkpoint.
      WorkloadWriter.to(source).write(transactions.subList(0, third));
      job.awaitCompletedCheckpointAfter(clock.instant(), TIMEOUT);
      WorkloadWriter.to(source).write(transactions.subList(third, 2 * third));
      String lostJob = job.jobId();
      Instant lostAt = clock.instant();
      savepoints.loseCluster();

      assertThat(job.state()).isEqualTo(JobState.UNKNOWN);
      assertThat(pipeline.capabilities()).contains(TaskManagerControl.class);
      assertThatThrownBy(
              () -> pipeline.capability(TaskManagerControl.class).orElseThrow().taskManagers())
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("lost");
      String checkpoint = savepoints.latestRetainedCheckpoint();
      LOG.info("Cluster lost at {}; restoring job {} from {}", lostAt, lostJob, checkpoint);
      assertThat(checkpoint).contains(lostJob).containsPattern("chk-\\d+$");
      assertThat(Path.of(java.net.URI.create(checkpoint).getPath()).resolve("_metadata"))
          .isRegularFile();

      String restoredJob = savepoints.restore(checkpoint, 2);
      Instant streamingAt = clock.instant();
      assertThat(restoredJob).isNotEqualTo(lostJob).isEqualTo(job.jobId());
      assertThat(job.restartCount()).isZero();
      SnapshotInfo firstCommit = awaitCommitAfter(tables, lostAt, clock);
      LOG.info(
          "Cluster loss: restored job streaming {} ms after the loss, first commit (checkpoint"
              + " {}) {} ms after it",
          Duration.between(lostAt, streamingAt).toMillis(),
          firstCommit.committedCheckpointId(),
          Duration.between(lostAt, firstCommit.committedAt()).toMillis());

      WorkloadWriter.to(source).write(transactions.subList(2 * third, transactions.size()));
      Expectation expected = Oracle.expect(workload);
      CatchUp.Point point =
          CatchUp.await(tables, expected.lastWrittenEventId().getAsLong(), TIMEOUT, clock);
      List<CheckResult> results = reconcile(pipeline, tables, point, expected, classLoader);
      results.forEach(r -> LOG.info("Check {}: {} {}", r.check(), r.verdict(), r.summary()));
      assertThat(results).extracting(CheckResult::check).contains("snapshot-diff");
      assertThat(results)
          .allSatisfy(
              r ->
                  assertThat(r.verdict())
                      .as("%s: %s", r.check(), r.summary())
                      .isEqualTo(Verdict.PASSED));
      assertThat(tables.snapshots(tables.currentTable()))
          .extracting(SnapshotInfo::flinkJobId)
          .contains(lostJob, restoredJob);
    } finally {
      pipeline.close();
    }
  }

  /** The first current-table snapshot committed after {@code after}. */
  private static SnapshotInfo awaitCommitAfter(TableAccess tables, Instant after, Clock clock)
      throws Exception {
    Instant deadline = clock.instant().plus(TIMEOUT);
    while (clock.instant().isBefore(deadline)) {
      for (SnapshotInfo snapshot : tables.snapshots(tables.currentTable())) {
        if (snapshot.committedAt().isAfter(after)) {
          return snapshot;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("No commit after the cluster loss within " + TIMEOUT);
  }

  private List<CheckResult> reconcile(
      PipelineUnderTest pipeline,
      TableAccess tables,
      CatchUp.Point point,
      Expectation expected,
      ClassLoader classLoader)
      throws Exception {
    Path spill = Files.createDirectories(runDirectory.resolve("spill"));
    RowSet sourceRows = SourceRowReader.orders(EmbeddedMariaDb.shared());
    List<CheckResult> results = new ArrayList<>();
    // the source must hold what the oracle expects, or the verdicts compare with a wrong reference
    results.add(
        new SnapshotDiffCheck()
            .check(
                CheckContext.builder(pipeline.semantics())
                    .expectedCurrent(expected.current())
                    .actualCurrent(sourceRows)
                    .workDirectory(spill)
                    .build()));
    CheckContext context =
        CheckContext.builder(pipeline.semantics())
            .expectedCurrent(sourceRows)
            .actualCurrent(tables.current(point.current().snapshotId()))
            .expectedChangelog(expected.changelog())
            .actualChangelog(tables.changelog(point.changelog().snapshotId()))
            .checkpointId(point.checkpointId())
            .workDirectory(spill)
            .build();
    for (ReconciliationCheck check : Discovered.checks(classLoader).requireNoProblems().all()) {
      // as the lab does: a check the pipeline cannot feed (a broker's linkage) does not apply
      if (pipeline.capabilities().containsAll(check.requiredCapabilities())) {
        results.add(check.check(context));
      }
    }
    return results;
  }
}
