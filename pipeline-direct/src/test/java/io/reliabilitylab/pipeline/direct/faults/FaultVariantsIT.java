package io.reliabilitylab.pipeline.direct.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.CheckpointFailureInjector;
import io.reliabilitylab.faults.CoordinatorFailureInjector;
import io.reliabilitylab.faults.SinkCommitFailureInjector;
import io.reliabilitylab.faults.TaskExceptionInjector;
import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in faults' new variants on the real direct pipeline (embedded MariaDB, Flink CDC, a
 * MiniCluster, Iceberg), each as its own scenario through the harness's runner, the way {@code run
 * --faults all} runs them: proven to have fired, recovered, and reconciled clean.
 */
class FaultVariantsIT {

  private static final Logger LOG = LoggerFactory.getLogger(FaultVariantsIT.class);
  private static final int EVENTS = 1_000;
  private static final long SEED = 23;

  @TempDir Path out;

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  /**
   * Needs the pipeline to call the runner's job-submitted listener, since a snapshot-phase fault is
   * armed the moment the job is submitted; skipped until the direct pipeline does.
   */
  @Test
  void anOperatorExceptionInTheSnapshotPhase() throws Exception {
    RunRecord record = run(TaskExceptionInjector.SNAPSHOT_PHASE, new TaskExceptionInjector());

    FaultEvidence evidence = provenAndRecovered(record);
    assertThat(evidence.details()).containsEntry("position", "snapshot-phase:50");
    assertAllChecksPassed(record);
  }

  @Test
  void theClusterDiesAndTheJobIsRestoredFromItsRetainedCheckpoint() throws Exception {
    RunRecord record =
        run(CoordinatorFailureInjector.CLUSTER_DIES, new CoordinatorFailureInjector());

    FaultEvidence evidence = provenAndRecovered(record);
    long restored = Long.parseLong(evidence.details().get("restored_checkpoint_id"));
    long lastCompleted =
        Long.parseLong(evidence.details().get("old_job_last_completed_checkpoint_id"));
    assertThat(lastCompleted).isLessThanOrEqualTo(restored);
    assertThat(evidence.details().get("new_job_id"))
        .isNotEqualTo(evidence.details().get("job_id_before"));
    assertThat(evidence.details().get("claim_boundary")).contains("MiniCluster", "JVM");
    assertAllChecksPassed(record);
  }

  @Test
  void aToleratedCheckpointFailureRecordsFlinksFailureReason() throws Exception {
    checkpointFailureRecordsItsReason("default", "");
  }

  @Test
  void anExpiredCheckpointRecordsFlinksFailureReason() throws Exception {
    checkpointFailureRecordsItsReason("expired", "CHECKPOINT_EXPIRED");
  }

  @Test
  void aFailureInTheSynchronousPartRecordsFlinksFailureReason() throws Exception {
    checkpointFailureRecordsItsReason("restart-sync", "TASK_FAILURE");
  }

  private void checkpointFailureRecordsItsReason(String variant, String reason) throws Exception {
    RunRecord record = run(variant, new CheckpointFailureInjector());

    FaultEvidence evidence = provenAndRecovered(record);
    assertThat(evidence.details())
        .as(variant)
        .hasEntrySatisfying(
            "checkpoint_failure_reason",
            named -> assertThat(named).matches("[A-Z_]+").contains(reason));
    assertAllChecksPassed(record);
  }

  @Test
  void aCommitThatSwappedThenFailedIsNotCommittedAgain() throws Exception {
    for (String variant :
        List.of(
            SinkCommitFailureInjector.FAIL_AFTER_SWAP,
            SinkCommitFailureInjector.COMMIT_STATE_UNKNOWN_VARIANT)) {
      RunRecord record = run(variant, new SinkCommitFailureInjector());

      FaultEvidence evidence = provenAndRecovered(record);
      assertThat(evidence.details()).as(variant).containsKey("committed_snapshot_id");
      RecoveryEvidence recovery = record.faults().get(0).recovery();
      assertThat(recovery.details())
          .as(variant)
          .containsEntry("target_checkpoint_commits_orders_current", "1")
          .containsEntry("target_checkpoint_commits_orders_changelog", "1")
          .containsEntry("checkpoints_committed_more_than_once_orders_current", "none")
          .containsEntry("checkpoints_committed_more_than_once_orders_changelog", "none");
      assertAllChecksPassed(record);
    }
  }

  @Test
  void theJobDiesBetweenTheCommitsOfSeveralPendingCheckpoints() throws Exception {
    RunRecord record =
        run(SinkCommitFailureInjector.SEVERAL_PENDING, new SinkCommitFailureInjector());

    FaultEvidence evidence = provenAndRecovered(record);
    long held = Long.parseLong(evidence.details().get("held_checkpoint_id"));
    assertThat(evidence.details())
        .containsEntry("failed_commit_checkpoint_id", Long.toString(held + 1))
        .containsEntry("held_checkpoint_failure_reason", "FINALIZE_CHECKPOINT_FAILURE");
    RecoveryEvidence recovery = record.faults().get(0).recovery();
    assertThat(recovery.details())
        .containsEntry("commits_of_checkpoint_" + held + "_orders_current", "1")
        .containsEntry("commits_of_checkpoint_" + (held + 1) + "_orders_current", "1")
        .containsEntry("checkpoints_committed_more_than_once_orders_current", "none")
        .containsEntry("checkpoints_committed_more_than_once_orders_changelog", "none");
    assertAllChecksPassed(record);
  }

  /**
   * Needs the pipeline to call the runner's job-submitted listener, since a snapshot-phase fault is
   * armed the moment the job is submitted; skipped until the direct pipeline does.
   */
  @Test
  void aTaskManagerIsLostInTheSnapshotPhase() throws Exception {
    RunRecord record = run(TaskFailureInjector.SNAPSHOT_PHASE, new TaskFailureInjector());

    FaultEvidence evidence = provenAndRecovered(record);
    assertThat(evidence.details()).containsKeys("snapshot_latch_closed_at", "task_manager");
    assertAllChecksPassed(record);
  }

  private static CheckResult check(RunRecord record, String name) {
    return record.checks().stream()
        .filter(c -> c.check().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no check " + name + " in " + record.checks()));
  }

  private RunRecord run(String variant, FaultInjector injector) throws Exception {
    FaultVariant chosen =
        injector.variants().stream()
            .filter(v -> v.name().equals(variant))
            .findFirst()
            .orElseThrow();
    ScenarioPlan plan =
        ScenarioPlan.of("direct", injector.name(), SEED, EVENTS)
            .withFaultVariant(injector.name(), chosen);
    return execute(plan);
  }

  private RunRecord runPlanned(String name, PlannedFault fault) throws Exception {
    return execute(ScenarioPlan.of("direct", name, SEED, EVENTS).withFaults(name, List.of(fault)));
  }

  private RunRecord execute(ScenarioPlan plan) throws Exception {
    ClassLoader classLoader = getClass().getClassLoader();
    ScenarioRunner runner =
        new ScenarioRunner(
            EmbeddedMariaDb.shared(),
            out,
            Discovered.pipelines(classLoader).requireNoProblems().all(),
            Discovered.checks(classLoader).requireNoProblems().all(),
            Discovered.faults(classLoader).requireNoProblems().all(),
            List.of("it", plan.scenario()),
            Clock.systemUTC());
    long started = System.nanoTime();
    RunRecord record = runner.run(plan);
    LOG.info(
        "Scenario {} took {} ms: {}",
        plan.scenario(),
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        record.summary());
    for (FaultRecord fault : record.faults()) {
      LOG.info(
          "Fault of {}: {} proofs {} details {} recovery {}",
          plan.scenario(),
          fault.evidence().status(),
          fault.evidence().proofs(),
          fault.evidence().details(),
          fault.recovery());
    }
    LOG.info(
        "Commits of the current table in {}: {}",
        plan.scenario(),
        record.snapshots().stream()
            .filter(s -> s.table().endsWith("orders_current"))
            .map(s -> s.snapshotId() + ":" + s.committedCheckpointId() + " " + s.flinkJobId())
            .toList());
    return record;
  }

  private static FaultEvidence provenAndRecovered(RunRecord record) {
    assertThat(record.faults()).as("faults of %s", record.summary()).hasSize(1);
    FaultRecord fault = record.faults().get(0);
    assertThat(fault.evidence().status()).as("%s", fault.evidence()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.evidence().proofs()).isNotEmpty();
    assertThat(fault.recovery()).as("recovery of %s", fault.evidence()).isNotNull();
    assertThat(fault.recovery().recovered()).as("%s", fault.recovery()).isTrue();
    return fault.evidence();
  }

  private static void assertAllChecksPassed(RunRecord record) {
    assertThat(record.summary().error()).as("run error").isNull();
    assertThat(record.checks())
        .isNotEmpty()
        .allSatisfy(
            c ->
                assertThat(c.verdict())
                    .as("%s: %s", c.check(), c.summary())
                    .isEqualTo(Verdict.PASSED));
  }
}
