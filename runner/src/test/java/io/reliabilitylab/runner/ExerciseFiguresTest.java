package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExerciseFiguresTest {

  private static final Instant T = Instant.parse("2026-11-29T12:00:00Z");

  @Test
  void percentilesUseTheNearestRankAndIgnoreUnfinishedCheckpoints() {
    List<CheckpointInfo> checkpoints =
        List.of(
            checkpoint(1, 100, 5),
            checkpoint(2, 300, 50),
            checkpoint(3, 200, 20),
            new CheckpointInfo(4, "IN_PROGRESS", T, null, null, null, null, false));
    assertThat(PressureExercise.percentile(checkpoints, CheckpointInfo::duration, 50))
        .isEqualTo(200);
    assertThat(PressureExercise.percentile(checkpoints, CheckpointInfo::duration, 100))
        .isEqualTo(300);
    assertThat(PressureExercise.percentile(checkpoints, CheckpointInfo::alignmentDuration, 100))
        .isEqualTo(50);
    assertThat(PressureExercise.percentile(List.of(), CheckpointInfo::duration, 50)).isZero();
  }

  @Test
  void aMaintenanceSnapshotHoldsTheCheckpointCommittedBeforeIt() {
    List<SnapshotInfo> snapshots =
        List.of(snapshot(1, 7L), snapshot(2, 8L), snapshot(3, null), snapshot(4, null));
    assertThat(CompactionExercise.effectiveCheckpoint(snapshots, 3)).isEqualTo(8L);
    assertThat(CompactionExercise.effectiveCheckpoint(snapshots, 0)).isEqualTo(7L);
    assertThat(CompactionExercise.effectiveCheckpoint(List.of(snapshot(1, null)), 0)).isNull();
  }

  private static CheckpointInfo checkpoint(long id, long millis, long alignmentMillis) {
    return new CheckpointInfo(
        id,
        "COMPLETED",
        T,
        T.plusMillis(millis),
        null,
        null,
        Duration.ofMillis(alignmentMillis),
        false);
  }

  private static SnapshotInfo snapshot(long id, Long checkpoint) {
    return new SnapshotInfo(
        "t", id, T, checkpoint == null ? "replace" : "append", null, checkpoint);
  }
}
