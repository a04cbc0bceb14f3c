package io.reliabilitylab.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObservationTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aBuiltObservationStartsRunningWithNothingSeen() {
    Observation observation = Observation.builder(T, "job-1").build();
    assertThat(observation)
        .isEqualTo(
            new Observation(
                T, "job-1", JobState.RUNNING, 0, List.of(), List.of(), null, null, null));
    assertThat(observation.latestSnapshot()).isNull();
    assertThat(observation.maxCommittedCheckpointId()).isEqualTo(-1);
    assertThat(observation.latestCheckpointId()).isZero();
  }

  @Test
  void readsTheNewestSnapshotAndTheHighestCheckpoints() {
    SnapshotInfo first = new SnapshotInfo("t", 1, T, "append", "job-1", 4L);
    SnapshotInfo second = new SnapshotInfo("t", 2, T, "append", "job-1", null);
    Observation observation =
        Observation.builder(T, "job-1")
            .state(JobState.RESTARTING)
            .restartCount(2)
            .checkpoints(
                List.of(
                    new CheckpointInfo(7, "COMPLETED", T, T, null, null, null, false),
                    new CheckpointInfo(8, "FAILED", T, T, null, "x", null, false)))
            .snapshots(List.of(first, second))
            .taskManagers(List.of("tm-1"))
            .pointFiredAt(T)
            .build();
    assertThat(observation.latestSnapshot()).isEqualTo(second);
    assertThat(observation.maxCommittedCheckpointId()).isEqualTo(4);
    assertThat(observation.latestCheckpointId()).isEqualTo(8);
    assertThat(observation.state()).isEqualTo(JobState.RESTARTING);
    assertThat(observation.taskManagers()).containsExactly("tm-1");
  }

  @Test
  void aProofRuleIsUnitTestedOnBuiltObservations() throws Exception {
    ProofRule restarted =
        (baseline, now) ->
            now.restartCount() > baseline.restartCount()
                ? ProofVerdict.proven(now.at(), List.of("the job restarted"), Map.of())
                : ProofVerdict.pending("restart count still " + now.restartCount());
    Observation baseline = Observation.builder(T, "job-1").build();
    assertThat(restarted.judge(baseline, baseline)).isInstanceOf(ProofVerdict.Pending.class);
    assertThat(
            restarted.judge(
                baseline, Observation.builder(T.plusSeconds(1), "job-1").restartCount(1).build()))
        .isEqualTo(ProofVerdict.proven(T.plusSeconds(1), List.of("the job restarted"), Map.of()));
  }

  @Test
  void evidenceTextIsOneCappedLine() {
    assertThat(EvidenceText.truncate(" a\n  b\tc ")).isEqualTo("a b c");
    assertThat(EvidenceText.truncate("x".repeat(400)))
        .hasSize(EvidenceText.MESSAGE_LIMIT + 1)
        .endsWith("…");
  }
}
