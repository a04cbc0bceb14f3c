package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.kit.CheckpointFailureReasons;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.SourceHeartbeats;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in faults' variants: what each declares, and the proofs the new ones rely on. */
class FaultVariantsTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path workDirectory;

  private final List<PipelineUnderTest> pipelines = new ArrayList<>();

  @AfterEach
  void stopPipelines() throws Exception {
    for (PipelineUnderTest pipeline : pipelines) {
      pipeline.close();
    }
  }

  @Test
  void everyBuiltInFaultListsItsPlainVariantFirstAndNamesEachVariantOnce() {
    for (FaultInjector injector : ServiceLoader.load(FaultInjector.class)) {
      List<FaultVariant> variants = injector.variants();
      assertThat(variants).as(injector.name()).isNotEmpty();
      assertThat(variants.get(0).name()).as(injector.name()).isEqualTo(FaultVariant.DEFAULT);
      Set<String> names = new HashSet<>();
      for (FaultVariant variant : variants) {
        assertThat(names.add(variant.name())).as(injector.name() + ":" + variant.name()).isTrue();
        assertThat(variant.description()).as(variant.name()).isNotBlank();
        variant
            .fixedPosition()
            .ifPresent(
                at ->
                    assertThat(injector.supportedPositions())
                        .as("%s:%s at %s", injector.name(), variant.name(), at.text())
                        .contains(at.kind()));
        if (variant.expectsDivergence()) {
          // only a scenario built on a named upstream defect, or a control that must make the
          // checks fail, may be expected to fail its checks
          String scenario = injector.name() + ":" + variant.name();
          assertThat(scenario)
              .isIn(
                  "savepoint-restore:older-savepoint",
                  "poison-message:unrepaired",
                  "task-failure:heartbeats-after-idle-commit");
          assertThat(variant.knownHazard())
              .startsWith(
                  switch (scenario) {
                    case "poison-message:unrepaired" -> "control: ";
                    case "task-failure:heartbeats-after-idle-commit" -> "FLINK-39265";
                    default -> "apache/iceberg#10892";
                  });
        }
      }
    }
  }

  @Test
  void theVariantsTheLabRunsAreTheOnesItPromises() {
    assertThat(names(new TaskExceptionInjector()))
        .containsExactly("default", "snapshot-phase", "snapshot-splits");
    assertThat(new TaskExceptionInjector().variants())
        .extracting(v -> v.fixedPosition().orElseThrow().text())
        .containsExactly("after-event:100", "snapshot-phase:50", "snapshot-phase:24");
    FaultVariant splits = new TaskExceptionInjector().variants().get(2);
    assertThat(splits.pipelineOptions()).containsEntry(LabOptions.SOURCE_SNAPSHOT_SPLIT_SIZE, "4");
    assertThat(splits.faultParameters())
        .containsEntry(TaskExceptionInjector.SNAPSHOT_THROTTLE, "throttle-100ms");
    assertThat(splits.requiredCapabilities()).contains(SnapshotSplits.class);
    assertThat(names(new TaskFailureInjector()))
        .containsExactly(
            "default",
            "snapshot-phase",
            "process-kill",
            "process-pause",
            "heartbeats-after-idle-commit");
    // the process variants are planned only where TaskManagers are processes
    assertThat(new TaskFailureInjector().variants())
        .filteredOn(v -> v.name().startsWith("process-"))
        .allSatisfy(
            v ->
                assertThat(v.requiredCapabilities())
                    .containsExactly(TaskManagerProcessControl.class));
    assertThat(names(new JobManagerFailoverInjector())).containsExactly("default");
    assertThat(names(new CoordinatorFailureInjector())).containsExactly("default", "cluster-dies");
    assertThat(names(new CheckpointFailureInjector()))
        .containsExactly("default", "expired", "restart-sync");
    assertThat(names(new SavepointRestoreInjector())).containsExactly("default", "older-savepoint");
    assertThat(names(new SinkCommitFailureInjector()))
        .containsExactly("default", "fail-after-swap", "commit-state-unknown", "several-pending");
    assertThat(names(new PoisonMessageInjector())).containsExactly("default", "unrepaired");
    assertThat(names(new BrokerRestartInjector())).containsExactly("default", "crash");
    assertThat(names(new DuplicateRedeliveryInjector())).containsExactly("default");
  }

  @Test
  void flink39265IsAKnownHazardOfAPostgresSourceWithFrequentHeartbeats() {
    FaultVariant heartbeats =
        new TaskFailureInjector()
            .variants().stream()
                .filter(v -> v.name().equals(TaskFailureInjector.HEARTBEATS_AFTER_IDLE_COMMIT))
                .findFirst()
                .orElseThrow();

    assertThat(heartbeats.knownHazard())
        .startsWith("FLINK-39265 (apache/flink-cdc#4323")
        .contains("DBZ-6204");
    // it sets the heartbeats of its own scenario; the fault itself takes no parameter
    assertThat(heartbeats.pipelineOptions())
        .containsExactly(Map.entry(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "100"));
    assertThat(heartbeats.faultParameters()).isEmpty();
    // 'all' plans it only on a PostgreSQL source whose pipeline was given heartbeats
    assertThat(heartbeats.requiredCapabilities())
        .containsExactly(ReplicationSlotAccess.class, SourceHeartbeats.class);
    assertThat(heartbeats.fixedPosition()).isEmpty();
  }

  @Test
  void theUnrepairedPoisonIsAControlExpectedToDivergeWithoutRepair() {
    FaultVariant unrepaired =
        new PoisonMessageInjector()
            .variants().stream()
                .filter(v -> v.name().equals("unrepaired"))
                .findFirst()
                .orElseThrow();

    assertThat(unrepaired.expectsDivergence()).isTrue();
    assertThat(unrepaired.knownHazard()).startsWith("control: ").contains("never repaired");
    assertThat(unrepaired.parameters()).containsExactly(Map.entry("repair", "false"));
    assertThat(unrepaired.fixedPosition()).isEmpty();
  }

  @Test
  void clusterDiesIsSkippedOnAPipelineWithoutSavepointControlWhileThePlainFaultIsNot()
      throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class, TableAccess.class),
                Set.of("source-enumerator")));

    try (FaultHandle handle =
        inject(
            new CoordinatorFailureInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of("mode", "cluster-dies"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("SavepointControl", "mode=cluster-dies");
      assertThat(handle.awaitRecovery(WAIT).recovered()).isFalse();
    }
    try (FaultHandle plain =
        inject(new CoordinatorFailureInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      assertThat(plain.awaitFired(WAIT).status()).isEqualTo(FaultStatus.FIRED);
    }
  }

  /**
   * A team's own job has no fault point compiled in: the enumerator's mode is skipped naming
   * FaultPoints, while losing the cluster, which needs none, runs. So the fault as a whole requires
   * only JobControl, and {@code --faults all} picks it for such a job.
   */
  @Test
  void theEnumeratorModeIsSkippedOnAJobWithoutFaultPointsWhileClusterDiesRuns() throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, SavepointControl.class, TableAccess.class), Set.of()));

    assertThat(new CoordinatorFailureInjector().requiredCapabilities())
        .containsExactly(JobControl.class);
    try (FaultHandle plain =
        inject(new CoordinatorFailureInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      FaultEvidence evidence = plain.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason())
          .contains("lacks FaultPoints")
          .doesNotContain("SavepointControl");
    }
    try (FaultHandle handle =
        inject(
            new CoordinatorFailureInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of("mode", "cluster-dies"))) {
      assertThat(handle.awaitFired(WAIT).status()).isEqualTo(FaultStatus.FIRED);
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void anUnknownModeIsRefusedInOneLineWhateverThePipelineOffers() {
    SimulatedPipeline pipeline =
        track(SimulatedPipeline.running(Set.of(JobControl.class, TableAccess.class), Set.of()));

    assertThatThrownBy(
            () ->
                inject(
                    new CoordinatorFailureInjector(),
                    pipeline,
                    new FaultPosition.Now(),
                    Map.of("mode", "enumerator-explodes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'enumerator-explodes'")
        .hasMessageContaining("[cluster-dies, enumerator-throws]")
        .hasMessageNotContaining("\n");
  }

  @Test
  void clusterDiesIsSkippedUntouchedWhenThePipelineCannotLoseItsCluster() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().cannotLoseCluster());

    try (FaultHandle handle =
        inject(
            new CoordinatorFailureInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of("mode", "cluster-dies"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("cannot lose its cluster");
      assertThat(pipeline.jobId()).isEqualTo("job-1");
      assertThat(pipeline.state()).isEqualTo(JobState.RUNNING);
    }
  }

  @Test
  void clusterDiesIsProvenByANewJobRestoredFromTheLatestRetainedCheckpoint() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new CoordinatorFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(2),
            Map.of("mode", "cluster-dies"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      long restored = Long.parseLong(evidence.details().get("restored_checkpoint_id"));
      long lastCompleted =
          Long.parseLong(evidence.details().get("old_job_last_completed_checkpoint_id"));
      assertThat(restored).isGreaterThanOrEqualTo(2).isGreaterThanOrEqualTo(lastCompleted);
      assertThat(evidence.details())
          .containsEntry("job_id_before", "job-1")
          .containsEntry("new_job_id", "job-2")
          .containsEntry("claim_boundary", CoordinatorFailureInjector.EMBEDDED_CLAIM_BOUNDARY)
          .hasEntrySatisfying(
              "retained_checkpoint_path", p -> assertThat(p).endsWith("chk-" + restored));
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("restored from retained checkpoint " + restored))
          .anySatisfy(p -> assertThat(p).contains("job-1 to job-2"));
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.restarts()).isZero();
    }
  }

  @Test
  void aTaskManagerIsLostOnlyOnceTheChangesOfItsPositionPassed() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new TaskFailureInjector(),
            pipeline,
            new FaultPosition.AfterEvent(pipeline.eventCount() + 400),
            Map.of())) {
      assertThat(pipeline.taskManagers()).as("nothing lost on injection").containsExactly("tm-1");
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(pipeline.eventCount()).isGreaterThan(400);
      assertThat(evidence.details())
          .containsEntry("task_manager", "tm-1")
          .containsKeys("latch_closed_at", "terminated_at", "replacement_task_manager");
      assertThat(evidence.proofs().get(0))
          .containsPattern("held the job after \\d+ changes at .*, while the changes streamed");
      assertThat(pipeline.armedIds()).as("the latch is released").isEmpty();
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void aTaskManagerIsLostOnlyOnceTheSnapshotPositionIsReached() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new TaskFailureInjector(),
            pipeline,
            new FaultPosition.SnapshotPhase(pipeline.eventCount() + 400),
            Map.of())) {
      assertThat(pipeline.taskManagers()).as("nothing lost on injection").containsExactly("tm-1");
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("task_manager", "tm-1")
          .containsKeys("snapshot_latch_closed_at", "terminated_at", "replacement_task_manager");
      assertThat(evidence.proofs().get(0)).contains("inside its snapshot phase");
      assertThat(pipeline.armedIds()).as("the latch is released").isEmpty();
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void aRestoreFromACheckpointOlderThanTheLostJobsLastIsRefuted() throws Exception {
    ProofRule rule =
        CoordinatorFailureInjector.restoredAfterLoss(
            "/checkpoints/abc/chk-3", "job-2", Instant.EPOCH, OptionalLong.of(5));
    ProofVerdict verdict = rule.judge(observation("job-1"), observation("job-2"));

    assertThat(verdict).isInstanceOf(ProofVerdict.Refuted.class);
    assertThat(((ProofVerdict.Refuted) verdict).reason())
        .contains("checkpoint 3", "older than checkpoint 5", "rolled back");
  }

  @Test
  void aCheckpointIdIsReadFromTheRetainedCheckpointsPath() {
    assertThat(CoordinatorFailureInjector.checkpointIdOf("file:/x/chk-1/y/chk-42")).hasValue(42);
    assertThat(CoordinatorFailureInjector.checkpointIdOf("s3://bucket/savepoint-1a2b")).isEmpty();
  }

  @Test
  void flinksCheckpointFailureReasonsAreNamedFromTheirMessages() {
    assertThat(CheckpointFailureReasons.name("Checkpoint expired before completing."))
        .hasValue("CHECKPOINT_EXPIRED");
    assertThat(CheckpointFailureReasons.name("Failure to finalize checkpoint."))
        .hasValue("FINALIZE_CHECKPOINT_FAILURE");
    assertThat(CheckpointFailureReasons.name("Asynchronous task checkpoint failed."))
        .hasValue("CHECKPOINT_ASYNC_EXCEPTION");
    assertThat(CheckpointFailureReasons.name("Task local checkpoint failure."))
        .hasValue("TASK_CHECKPOINT_FAILURE");
    assertThat(CheckpointFailureReasons.describe("disk on fire")).isEqualTo("disk on fire");
    assertThat(CheckpointFailureReasons.withName("Checkpoint expired before completing."))
        .isEqualTo("Checkpoint expired before completing. (CHECKPOINT_EXPIRED)");
  }

  @Test
  void eachCheckpointFailureVariantNamesFlinksReason() throws Exception {
    Map<String, String> expected =
        Map.of(
            "tolerated-async", "CHECKPOINT_ASYNC_EXCEPTION",
            "expired", "CHECKPOINT_EXPIRED",
            "restart-sync", "TASK_CHECKPOINT_FAILURE");
    for (Map.Entry<String, String> entry : expected.entrySet()) {
      SimulatedPipeline pipeline = track(SimulatedPipeline.running());
      try (FaultHandle handle =
          inject(
              new CheckpointFailureInjector(),
              pipeline,
              new FaultPosition.AtCheckpoint(2),
              Map.of("variant", entry.getKey()))) {
        FaultEvidence evidence = handle.awaitFired(WAIT);

        assertThat(evidence.status()).as(entry.getKey()).isEqualTo(FaultStatus.FIRED);
        assertThat(evidence.details())
            .as(entry.getKey())
            .containsEntry("checkpoint_failure_reason", entry.getValue());
      }
    }
  }

  @Test
  void commitStateUnknownCommitsOnceAndIsNotCommittedAgain() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new SinkCommitFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(3),
            Map.of("variant", "commit-state-unknown"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("action", "commit-state-unknown")
          .containsKey("committed_snapshot_id");
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);
      String target = recovery.details().get("target_checkpoint_id");
      assertThat(recovery.details())
          .containsEntry("target_checkpoint_commits_orders_current", "1")
          .containsEntry("checkpoints_committed_more_than_once_orders_current", "none");
      assertThat(Long.parseLong(target)).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void severalPendingCommitsTheHeldCheckpointThenFailsBeforeTheNextOnesSwap() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());
    long held = pipeline.checkpoints().stream().mapToLong(CheckpointInfo::id).max().orElse(0) + 3;

    try (FaultHandle handle =
        inject(
            new SinkCommitFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(held),
            Map.of("variant", "several-pending"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("held_checkpoint_id", Long.toString(held))
          .containsEntry("failed_commit_checkpoint_id", Long.toString(held + 1))
          .containsEntry("held_checkpoint_failure_reason", "CHECKPOINT_ASYNC_EXCEPTION")
          .containsEntry("restart_count_after", "1");
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("committed the pending checkpoint " + held));
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.details())
          .containsEntry("commits_of_checkpoint_" + held + "_orders_current", "1")
          .containsEntry("commits_of_checkpoint_" + (held + 1) + "_orders_current", "1")
          .containsEntry("checkpoints_committed_more_than_once_orders_current", "none");
      assertThat(pipeline.armedIds()).as("the stall and the commit fault are healed").isEmpty();
    }
  }

  @Test
  void severalPendingIsSkippedWithoutTheCurrentTablesCommitPoint() throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class, TableAccess.class),
                Set.of("sink-commit", "checkpoint-storage")));

    try (FaultHandle handle =
        inject(
            new SinkCommitFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(3),
            Map.of("variant", "several-pending"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("sink-commit-current");
      assertThat(pipeline.armedIds()).isEmpty();
    }
  }

  @Test
  void anOlderSavepointRestoreUnderTheSameJobIdSkipsCommitsAndLosesTheirEventsOnTheFailure()
      throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new SavepointRestoreInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of("from", "older-savepoint"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      Map<String, String> details = evidence.details();
      assertThat(details.get("restored_job_id")).isEqualTo(details.get("job_id"));
      long savepoint = Long.parseLong(details.get("savepoint_checkpoint_id"));
      long maxCommitted = Long.parseLong(details.get("max_committed_before_outage"));
      assertThat(maxCommitted).isGreaterThanOrEqualTo(savepoint + 2);
      assertThat(details.get("skipped_commit_checkpoints")).isNotBlank();
      assertThat(details).containsEntry("restored_job_commits_before_failure", "none");
      assertThat(Files.isDirectory(Path.of(details.get("savepoint_path")))).isTrue();
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
      assertThat(pipeline.lostEvents()).isPositive();
    }
  }

  @Test
  void anOlderSavepointRestoreIsSkippedWithoutASavepointThatLeavesTheJobRunning() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().cannotSavepointWhileRunning());

    try (FaultHandle handle =
        inject(
            new SavepointRestoreInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of("from", "older-savepoint"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("without stopping");
      assertThat(pipeline.state()).isEqualTo(JobState.RUNNING);
    }
  }

  @Test
  void theOlderSavepointVariantIsExpectedToDivergeWithTheIcebergIssue() {
    FaultVariant older =
        new SavepointRestoreInjector()
            .variants().stream()
                .filter(v -> v.name().equals("older-savepoint"))
                .findFirst()
                .orElseThrow();

    assertThat(older.expectsDivergence()).isTrue();
    assertThat(older.knownHazard()).startsWith("apache/iceberg#10892");
    assertThat(older.parameters()).containsEntry("from", "older-savepoint");
  }

  private static List<String> names(FaultInjector injector) {
    return injector.variants().stream().map(FaultVariant::name).toList();
  }

  private static Observation observation(String jobId) {
    return new Observation(
        Instant.EPOCH, jobId, JobState.RUNNING, 0, List.of(), List.of(), null, null, null);
  }

  private FaultHandle inject(
      FaultInjector injector,
      PipelineUnderTest pipeline,
      FaultPosition position,
      Map<String, String> parameters)
      throws Exception {
    FaultSpec spec =
        new FaultSpec(FaultIds.of(1, injector.name()), injector.name(), position, parameters);
    return injector.inject(
        new FaultContext(pipeline, spec, Clock.systemUTC(), WAIT, workDirectory));
  }

  private <P extends PipelineUnderTest> P track(P pipeline) {
    pipelines.add(pipeline);
    return pipeline;
  }
}
