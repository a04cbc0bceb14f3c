package io.reliabilitylab.spi.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvidenceBuildersTest {

  private static final FaultSpec SPEC =
      new FaultSpec("srl-fault-1-x", "x", new FaultPosition.Now(), Map.of());
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aFreshFaultEvidenceBuilderIsArmedWithNothingDone() {
    FaultEvidence armed = FaultEvidence.builder(SPEC, T).build();
    assertThat(armed)
        .isEqualTo(
            new FaultEvidence(
                "srl-fault-1-x", "x", FaultStatus.ARMED, T, null, "", Map.of(), List.of(), ""));
  }

  @Test
  void firedEvidenceIsBuiltWithItsTimeProofsAndDetailsInOrder() {
    FaultEvidence fired =
        FaultEvidence.builder(SPEC, T)
            .what("killed connection 42")
            .detail("connection_id", "42")
            .details(Map.of("user", "cdc"))
            .detail("connection_id", "43")
            .proof("connection 42 is gone")
            .proofs(List.of("the binlog ended at 1:4"))
            .fired(T.plusSeconds(1))
            .build();
    assertThat(fired)
        .isEqualTo(
            new FaultEvidence(
                "srl-fault-1-x",
                "x",
                FaultStatus.FIRED,
                T,
                T.plusSeconds(1),
                "killed connection 42",
                Map.of("connection_id", "43", "user", "cdc"),
                List.of("connection 42 is gone", "the binlog ended at 1:4"),
                ""));
    assertThat(fired.details().keySet()).containsExactly("connection_id", "user");
  }

  @Test
  void theBuilderRefusesWhatTheRecordRefuses() {
    assertThatThrownBy(() -> FaultEvidence.builder(SPEC, T).fired(T).build())
        .hasMessageContaining("at least one proof");
    assertThatThrownBy(() -> FaultEvidence.builder(SPEC, T).notProven(" ").build())
        .hasMessageContaining("reason");
  }

  @Test
  void toBuilderMovesEvidenceOnAndKeepsTheRest() {
    FaultEvidence fired =
        FaultEvidence.builder(SPEC, T).what("did").detail("a", "1").proof("p").fired(T).build();
    assertThat(fired.toBuilder().build()).isEqualTo(fired);
    FaultEvidence unproven = fired.toBuilder().detail("b", "2").notProven("no longer").build();
    assertThat(unproven.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(unproven.firedAt()).isNull();
    assertThat(unproven.reason()).isEqualTo("no longer");
    assertThat(unproven.details()).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    assertThat(unproven.what()).isEqualTo("did");
    assertThat(unproven.toBuilder().armed().build().reason()).isEmpty();
  }

  @Test
  void skippedEvidenceKeepsItsShape() {
    assertThat(FaultEvidence.skipped(SPEC, T, "lacks JobControl"))
        .isEqualTo(
            new FaultEvidence(
                "srl-fault-1-x",
                "x",
                FaultStatus.SKIPPED,
                T,
                null,
                "not injected",
                Map.of(),
                List.of(),
                "lacks JobControl"));
  }

  @Test
  void recoveryIsRecoveredExactlyWhenRunningCheckpointAndCommitAreGiven() {
    RecoveryEvidence recovered =
        RecoveryEvidence.builder(T)
            .runningAt(T.plusSeconds(1))
            .firstCheckpoint(3, T.plusSeconds(2))
            .firstCommit(9, T.plusSeconds(3))
            .restarts(1)
            .detail("job_id", "job-1")
            .build();
    assertThat(recovered)
        .isEqualTo(
            new RecoveryEvidence(
                true,
                T,
                T.plusSeconds(1),
                3L,
                T.plusSeconds(2),
                9L,
                T.plusSeconds(3),
                1,
                Map.of("job_id", "job-1")));
    RecoveryEvidence noCommit =
        RecoveryEvidence.builder(T)
            .runningAt(T.plusSeconds(1))
            .firstCheckpoint(3, T.plusSeconds(2))
            .build();
    assertThat(noCommit.recovered()).isFalse();
    assertThat(noCommit.firstCheckpointId()).isEqualTo(3L);
    assertThat(noCommit.timeToFirstCommit()).isNull();
  }

  @Test
  void aSkippedRecoveryNamesTheReason() {
    assertThat(RecoveryEvidence.skipped(T, "lacks JobControl"))
        .isEqualTo(
            new RecoveryEvidence(
                false, T, null, null, null, null, null, 0, Map.of("skipped", "lacks JobControl")));
  }
}
