package io.reliabilitylab.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.BarePipeline;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault written with the kit ({@link OperatorThrowsFault}) on the testkit's simulated pipeline:
 * fired with proof when the pipeline shows it, not proven when the proof never appears, refuted
 * when the pipeline shows more than the fault explains, skipped where it cannot fire.
 */
class OperatorThrowsFaultTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final FaultSpec NOW =
      new FaultSpec(
          "srl-fault-1-operator-throws", "operator-throws", new FaultPosition.Now(), Map.of());

  @TempDir Path workDirectory;

  private final List<PipelineUnderTest> pipelines = new ArrayList<>();

  @AfterEach
  void stopPipelines() throws Exception {
    for (PipelineUnderTest pipeline : pipelines) {
      pipeline.close();
    }
  }

  @Test
  void isFiredWithProofAndThePipelineRecovers() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());
    try (FaultHandle handle = new OperatorThrowsFault().inject(context(pipeline, NOW))) {
      assertThat(handle.evidence().status()).isEqualTo(FaultStatus.ARMED);

      FaultEvidence evidence = handle.awaitFired(TIMEOUT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.firedAt()).isNotNull();
      assertThat(evidence.proofs())
          .anySatisfy(proof -> assertThat(proof).contains("carrying " + NOW.id()))
          .contains("the restart count rose by exactly 1");
      assertThat(evidence.details())
          .containsEntry("fault_point", "operator")
          .containsEntry("job_id_before", "job-1")
          .containsEntry("restart_count_before", "0")
          .containsEntry("restart_count_after", "1")
          .containsKey("failure_reason");
      assertThat(handle.awaitFired(Duration.ZERO)).as("settled once proven").isEqualTo(evidence);

      RecoveryEvidence recovery = handle.awaitRecovery(TIMEOUT);

      assertThat(recovery.recovered()).as("%s", recovery).isTrue();
      assertThat(recovery.faultAt()).isEqualTo(evidence.firedAt());
      assertThat(recovery.restarts()).isEqualTo(1);
      assertThat(recovery.firstCommitAt()).isAfter(evidence.firedAt());
      assertThat(recovery.details())
          .containsEntry("fault_status", "FIRED")
          .containsEntry("first_commit_table", SimulatedPipeline.CURRENT);
    }
    assertThat(pipeline.armedIds()).as("healed on close").isEmpty();
  }

  @Test
  void isNotProvenWhenTheProofNeverAppears() throws Exception {
    // the job fails and restarts, but its exception history never carries the fault id
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().hideFaultIds());
    try (FaultHandle handle = new OperatorThrowsFault().inject(context(pipeline, NOW))) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofMillis(500));

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.fired()).isFalse();
      assertThat(evidence.firedAt()).isNull();
      assertThat(evidence.proofs()).isEmpty();
      assertThat(evidence.reason())
          .startsWith("not proven within PT0.5S")
          .contains("fault id " + NOW.id() + " is not in the job's exception history");
      assertThat(pipeline.restartCount()).as("the fault did act").isEqualTo(1);
    }
  }

  @Test
  void isNotProvenWhenItsPositionIsNeverReached() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());
    FaultSpec never =
        new FaultSpec(NOW.id(), NOW.fault(), new FaultPosition.AfterEvent(1_000_000_000), Map.of());
    try (FaultHandle handle = new OperatorThrowsFault().inject(context(pipeline, never))) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofMillis(200));

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.details()).containsEntry("restart_count_after", "0");
    }
    assertThat(pipeline.armedIds()).isEmpty();
  }

  @Test
  void isRefutedForGoodWhenThePipelineShowsMoreThanTheFaultExplains() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running().extraRestartsPerFailure(1));
    try (FaultHandle handle = new OperatorThrowsFault().inject(context(pipeline, NOW))) {
      FaultEvidence evidence = handle.awaitFired(TIMEOUT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .isEqualTo("the restart count rose by 2, but the fault explains exactly 1");
      assertThat(handle.awaitFired(TIMEOUT)).as("a refutation is final").isEqualTo(evidence);
    }
  }

  @Test
  void isSkippedNamingWhatIsMissingOnPipelinesThatCannotHostIt() throws Exception {
    FaultHandle bare = new OperatorThrowsFault().inject(context(BarePipeline.create(), NOW));
    assertThat(bare).isInstanceOf(SkippedFault.class);
    assertThat(bare.evidence().status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(bare.evidence().reason()).contains("FaultPoints, JobControl");
    RecoveryEvidence recovery = bare.awaitRecovery(TIMEOUT);
    assertThat(recovery.recovered()).isFalse();
    assertThat(recovery.details()).containsEntry("skipped", bare.evidence().reason());

    SimulatedPipeline withoutOperator =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class), Set.of("sink-commit")));
    FaultEvidence skipped =
        new OperatorThrowsFault().inject(context(withoutOperator, NOW)).awaitFired(TIMEOUT);
    assertThat(skipped.status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(skipped.reason()).isEqualTo("the job has no fault point 'operator'");
  }

  @Test
  void recoveryWithoutTableAccessIsNotObservableAndSaysSo() throws Exception {
    SimulatedPipeline pipeline =
        track(
            SimulatedPipeline.running(
                Set.of(JobControl.class, FaultPoints.class), SimulatedPipeline.ALL_FAULT_POINTS));
    try (FaultHandle handle = new OperatorThrowsFault().inject(context(pipeline, NOW))) {
      RecoveryEvidence recovery = handle.awaitRecovery(TIMEOUT);

      assertThat(recovery.recovered()).isFalse();
      assertThat(recovery.runningAt()).isNotNull();
      assertThat(recovery.firstCheckpointId()).isNotNull();
      assertThat(recovery.firstCommitAt()).isNull();
      assertThat(recovery.details().get("first_commit")).startsWith("not observable");
    }
  }

  private FaultContext context(PipelineUnderTest pipeline, FaultSpec spec) {
    return new FaultContext(pipeline, spec, Clock.systemUTC(), TIMEOUT, workDirectory);
  }

  private SimulatedPipeline track(SimulatedPipeline pipeline) {
    pipelines.add(pipeline);
    return pipeline;
  }
}
