package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the built-in faults accept as proof, and what they refuse. */
class FaultProofTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration SHORT = Duration.ofMillis(400);

  @TempDir Path workDirectory;

  private final List<PipelineUnderTest> pipelines = new ArrayList<>();

  @AfterEach
  void stopPipelines() throws Exception {
    for (PipelineUnderTest pipeline : pipelines) {
      pipeline.close();
    }
  }

  @Test
  void aFaultWhoseIdNeverAppearsInTheExceptionHistoryIsNotProven() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().hideFaultIds());

    try (FaultHandle handle =
        inject(new TaskExceptionInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(pipeline.restartCount()).isEqualTo(1);
      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.firedAt()).isNull();
      assertThat(evidence.reason())
          .contains("not proven within", "srl-fault-1-task-exception")
          .contains("not in the job's exception history");
    }
  }

  @Test
  void aRestartCountThatRoseByTwoInsteadOfOneIsNotProvenWithTheReason() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().extraRestartsPerFailure(1));

    try (FaultHandle handle =
        inject(new CoordinatorFailureInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason()).contains("rose by 2", "0 → 2", "explains exactly 1");
      assertThat(evidence.details()).containsEntry("restart_count_after", "2");
      assertThat(handle.awaitFired(SHORT)).as("a refuted fault stays refuted").isEqualTo(evidence);
    }
  }

  @Test
  void aToleratedCheckpointFailureThatRestartedTheJobIsNotProven() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().restartOnCheckpointFailure());

    try (FaultHandle handle =
        inject(
            new CheckpointFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(2),
            Map.of("variant", "tolerated-async"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .contains("the job restarted", "0 → 1", "should tolerate", "srl-fault-1");
    }
  }

  @Test
  void recoveryWaitsForARunningJobACheckpointAndACommitAfterTheFault() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().commitsStopAfterFailure());

    try (FaultHandle handle =
        inject(new TaskExceptionInjector(), pipeline, new FaultPosition.AfterEvent(30), Map.of())) {
      assertThat(handle.awaitFired(WAIT).status()).isEqualTo(FaultStatus.FIRED);

      // long enough to see the job running and checkpointing again, even on a busy machine
      assertThatThrownBy(() -> handle.awaitRecovery(Duration.ofSeconds(2)))
          .isInstanceOf(TimeoutException.class)
          .hasMessageContaining("running again at")
          .hasMessageContaining("completed after the fault")
          .hasMessageContaining("no sink commit after the fault");
    }
  }

  @Test
  void aRecoveredPipelineIsRecordedRunningThenCheckpointedThenCommitted() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(new TaskExceptionInjector(), pipeline, new FaultPosition.AfterEvent(30), Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.proofs())
          .anySatisfy(proof -> assertThat(proof).contains("exception history", "srl-fault-1"))
          .anySatisfy(proof -> assertThat(proof).contains("rose by exactly 1: 0 → 1"));
      assertThat(evidence.details())
          .containsEntry("restart_count_before", "0")
          .containsEntry("restart_count_after", "1")
          .containsKeys("failure_reason", "fault_point", "position");
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.faultAt()).isEqualTo(evidence.firedAt());
      assertThat(recovery.runningAt()).isAfterOrEqualTo(recovery.faultAt());
      assertThat(recovery.firstCheckpointAt()).isAfter(recovery.faultAt());
      assertThat(recovery.firstCommitAt()).isAfter(recovery.faultAt());
      assertThat(recovery.restarts()).isEqualTo(1);
      assertThat(recovery.timeToFirstCommit()).isPositive();
    }
  }

  @Test
  void aLostTaskManagerIsProvenByItsAbsenceAndARestartWithTheClaimBoundary() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(new TaskFailureInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("task_manager", "tm-1")
          .containsEntry("replacement_task_manager", "tm-2")
          .containsEntry("claim_boundary", TaskFailureInjector.EMBEDDED_CLAIM_BOUNDARY)
          .containsEntry("restart_count_before", "0");
      assertThat(evidence.proofs()).anySatisfy(p -> assertThat(p).contains("tm-1 is gone"));
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void aPipelineStatingItsOwnClaimBoundaryIsQuoted() {
    assertThat(
            TaskFailureInjector.claimBoundary(
                Map.of(TaskFailureInjector.CLAIM_BOUNDARY_KEY, "a pod is deleted by kubectl")))
        .contains("a pod is deleted by kubectl");
    assertThat(TaskFailureInjector.claimBoundary(Map.of("flink.cluster", "http://jm:8081")))
        .isEmpty();
  }

  @Test
  void eachCheckpointFailureVariantRecordsItsFailureReason() throws Exception {
    for (String variant : List.of("tolerated-async", "expired", "restart-sync")) {
      SimulatedPipeline pipeline = track(SimulatedPipeline.running());
      try (FaultHandle handle =
          inject(
              new CheckpointFailureInjector(),
              pipeline,
              new FaultPosition.AtCheckpoint(2),
              Map.of("variant", variant))) {
        FaultEvidence evidence = handle.awaitFired(WAIT);

        assertThat(evidence.status()).as(variant).isEqualTo(FaultStatus.FIRED);
        assertThat(evidence.details()).as(variant).containsKey("failed_checkpoints");
        switch (variant) {
          case "tolerated-async" ->
              assertThat(evidence.details())
                  .containsEntry("failure_reason", "Asynchronous task checkpoint failed.")
                  .containsEntry("restart_count_after", "0");
          case "expired" -> {
            assertThat(evidence.details())
                .containsEntry("failure_reason", "Checkpoint expired before completing.")
                .containsEntry("restart_count_after", "0");
            assertThat(pipeline.armedIds()).as("the stall is released").isEmpty();
          }
          default ->
              assertThat(evidence.details())
                  .containsEntry("restart_count_after", "1")
                  .hasEntrySatisfying(
                      "failed_checkpoints", v -> assertThat(v).contains("Task local checkpoint"));
        }
        assertThat(handle.awaitRecovery(WAIT).recovered()).as(variant).isTrue();
      }
    }
  }

  @Test
  void aCommitFailedBeforeTheSwapIsCommittedOnceAfterTheRestore() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new SinkCommitFailureInjector(),
            pipeline,
            new FaultPosition.AroundCommit(2, false),
            Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details()).containsEntry("variant", "fail-before-swap");
      assertThat(recovery.details())
          .containsKey("target_checkpoint_id")
          .containsEntry("target_checkpoint_commits_orders_current", "1")
          .containsEntry("target_checkpoint_commits_orders_changelog", "1")
          .containsEntry("checkpoints_committed_more_than_once_orders_current", "none");
    }
  }

  @Test
  void aCommitThatSucceededBeforeTheFailureIsProvenAndNotCommittedAgain() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(
            new SinkCommitFailureInjector(),
            pipeline,
            new FaultPosition.AroundCommit(2, true),
            Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      String target = evidence.details().get("target_checkpoint_id");
      assertThat(Long.parseLong(target)).isGreaterThanOrEqualTo(2);
      assertThat(evidence.proofs())
          .anySatisfy(
              p -> assertThat(p).contains("committed checkpoint " + target, "before the failure"));
      assertThat(recovery.firstCommitSnapshotId())
          .isNotEqualTo(Long.valueOf(evidence.details().get("committed_snapshot_id")));
      assertThat(recovery.details())
          .containsEntry("target_checkpoint_id", target)
          .containsEntry("target_checkpoint_commits_orders_current", "1")
          .containsEntry("checkpoints_committed_more_than_once_orders_changelog", "none");
    }
  }

  @Test
  void aSavepointRestoreIsProvenByTheNewJobIdAndTheSavepointOnDisk() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle =
        inject(new SavepointRestoreInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("job_id_before", "job-1")
          .containsEntry("new_job_id", "job-2")
          .containsEntry("parallelism_before", "1")
          .containsEntry("parallelism_after", "2")
          .containsKey("savepoint_path");
      assertThat(evidence.proofs()).anySatisfy(p -> assertThat(p).contains("exists on the local"));
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.details()).containsEntry("job_id", "job-2");
    }
  }

  @Test
  void aJobWithoutTheNeededFaultPointSkipsTheFaultNamingThePoint() throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class), Set.of("operator")));

    try (FaultHandle handle =
        inject(
            new CheckpointFailureInjector(),
            pipeline,
            new FaultPosition.AtCheckpoint(1),
            Map.of())) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("no fault point 'checkpoint-storage'");
      assertThat(pipeline.armedIds()).isEmpty();
    }
  }

  @Test
  void aPipelineWithoutTableAccessCannotProveRecovery() throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class), Set.of("operator")));

    try (FaultHandle handle =
        inject(new TaskExceptionInjector(), pipeline, new FaultPosition.Now(), Map.of())) {
      assertThat(handle.awaitFired(WAIT).status()).isEqualTo(FaultStatus.FIRED);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(recovery.recovered()).isFalse();
      assertThat(recovery.firstCheckpointAt()).isNotNull();
      assertThat(recovery.details().get("first_commit")).contains("no TableAccess");
    }
  }

  @Test
  void closingDisarmsAnUnfiredFaultAndCanBeRepeated() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());
    FaultHandle handle =
        inject(
            new TaskExceptionInjector(),
            pipeline,
            new FaultPosition.AfterEvent(Long.MAX_VALUE),
            Map.of());
    assertThat(pipeline.armedIds()).containsExactly("srl-fault-1-task-exception");
    assertThat(handle.evidence().status()).isEqualTo(FaultStatus.ARMED);

    handle.close();
    handle.close();

    assertThat(pipeline.armedIds()).isEmpty();
    assertThat(handle.awaitFired(Duration.ofMillis(50)).status()).isEqualTo(FaultStatus.NOT_PROVEN);
  }

  @Test
  void badInputIsRefusedBeforeAnythingIsArmed() {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    assertThatThrownBy(
            () ->
                inject(
                    new CheckpointFailureInjector(),
                    pipeline,
                    new FaultPosition.AtCheckpoint(1),
                    Map.of("variant", "sometimes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use one of [expired, restart-sync, tolerated-async]");
    assertThatThrownBy(
            () ->
                inject(
                    new SinkCommitFailureInjector(),
                    pipeline,
                    new FaultPosition.AroundCommit(3, false),
                    Map.of("variant", "fail-after-swap")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs position around-commit:3:after-swap");
    assertThatThrownBy(
            () ->
                inject(
                    new TaskFailureInjector(),
                    pipeline,
                    new FaultPosition.AtCheckpoint(1),
                    Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot fire at at-checkpoint:1; it supports now");
    assertThatThrownBy(
            () ->
                inject(
                    new TaskExceptionInjector(),
                    pipeline,
                    new FaultPosition.Now(),
                    Map.of("colour", "red")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not understand parameter(s) [colour]");
    assertThatThrownBy(
            () ->
                inject(
                    new SavepointRestoreInjector(),
                    pipeline,
                    new FaultPosition.Now(),
                    Map.of("parallelism", "zero")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole number >= 1");
    assertThat(pipeline.armedIds()).isEmpty();
    assertThat(pipeline.jobId()).isEqualTo("job-1");
  }

  @Test
  void serviceLoaderFindsEveryBuiltInFault() {
    List<String> names = new ArrayList<>();
    ServiceLoader.load(FaultInjector.class).forEach(injector -> names.add(injector.name()));

    assertThat(names)
        .contains(
            "task-failure",
            "task-exception",
            "coordinator-failure",
            "checkpoint-failure",
            "savepoint-restore",
            "sink-commit-failure",
            "poison-message",
            "broker-restart",
            "duplicate-redelivery",
            "jobmanager-failover");
  }

  @Test
  void injectingTwiceWithTheSameIdIsRefusedByThePipelineAndLeavesTheFirstArmed() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());
    FaultPosition later = new FaultPosition.AfterEvent(Long.MAX_VALUE);
    try (FaultHandle first = inject(new TaskExceptionInjector(), pipeline, later, Map.of())) {
      assertThatCode(() -> inject(new TaskExceptionInjector(), pipeline, later, Map.of()))
          .isInstanceOf(IllegalStateException.class);
      assertThat(pipeline.armedIds()).hasSize(1);
      assertThat(first.evidence().status()).isEqualTo(FaultStatus.ARMED);
    }
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
