package io.reliabilitylab.spi.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultPositionTest {

  @Property
  void textFormsReadBack(
      @ForAll @LongRange(min = 1, max = 1_000_000) long n, @ForAll boolean afterSwap) {
    for (FaultPosition position :
        List.of(
            new FaultPosition.Now(),
            new FaultPosition.AfterEvent(n),
            new FaultPosition.AtCheckpoint(n),
            new FaultPosition.AroundCommit(n, afterSwap),
            new FaultPosition.SnapshotPhase(n))) {
      assertThat(FaultPosition.parse(position.text())).isEqualTo(position);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "later",
        "after-event",
        "after-event:x",
        "at-checkpoint:0",
        "around-commit:3:during",
        "12:00"
      })
  void refusesAnythingElseListingTheAcceptedForms(String text) {
    assertThatThrownBy(() -> FaultPosition.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("after-event:K");
  }

  @Test
  void firedEvidenceNeedsAProofAndATime() {
    FaultSpec spec = new FaultSpec("srl-fault-1-x", "x", new FaultPosition.Now(), Map.of());
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertThatThrownBy(
            () ->
                new FaultEvidence(
                    spec.id(),
                    spec.fault(),
                    FaultStatus.FIRED,
                    now,
                    now,
                    "did",
                    Map.of(),
                    List.of(),
                    ""))
        .hasMessageContaining("at least one proof");
    assertThat(FaultEvidence.skipped(spec, now, "needs JobControl").fired()).isFalse();
    assertThatThrownBy(() -> FaultEvidence.skipped(spec, now, " ")).hasMessageContaining("reason");
  }

  @Test
  void recoveryIsProvenOnlyWithRunningCheckpointAndCommit() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    assertThatThrownBy(() -> new RecoveryEvidence(true, t, t, 3L, t, null, null, 1, Map.of()))
        .hasMessageContaining("a commit");
    RecoveryEvidence ok =
        new RecoveryEvidence(
            true, t, t.plusSeconds(1), 3L, t.plusSeconds(2), 9L, t.plusSeconds(3), 1, Map.of());
    assertThat(ok.timeToFirstCommit()).hasSeconds(3);
  }
}
