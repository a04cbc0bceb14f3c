package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultSwitchboardTest {

  private static final String ID = "srl-fault-1-task-exception";

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void listsItsPointsInAStableOrder() {
    assertThat(FaultSwitchboard.points())
        .containsExactly(
            "source-enumerator",
            "operator",
            "checkpoint-storage",
            "sink-commit",
            "sink-commit-current",
            "sink-commit-changelog");
  }

  @Test
  void nothingIsArmedUntilAPointIsArmedAndAfterItFired() {
    assertThat(FaultSwitchboard.anyArmed()).isFalse();

    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);

    assertThat(FaultSwitchboard.anyArmed()).isTrue();
    Arming arming = FaultSwitchboard.armed(FaultSwitchboard.OPERATOR).get(0);
    assertThat(arming.tryFire()).isTrue();
    assertThat(arming.tryFire()).isFalse();
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
    FaultSwitchboard.disarm(ID);
    assertThat(FaultSwitchboard.firedAt(ID)).as("still known after disarming").isPresent();
  }

  @Test
  void aDisarmedPointNeverFires() {
    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    Arming arming = FaultSwitchboard.armed(FaultSwitchboard.OPERATOR).get(0);

    FaultSwitchboard.disarm(ID);

    assertThat(arming.tryFire()).isFalse();
    assertThat(FaultSwitchboard.firedAt(ID)).isEmpty();
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
  }

  @Test
  void refusesAnUnknownPointNamingTheKnownOnes() {
    assertThatThrownBy(
            () -> FaultSwitchboard.arm("network", new FaultPosition.Now(), FaultAction.THROW, ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown fault point 'network'")
        .hasMessageContaining("source-enumerator, operator");
  }

  @Test
  void refusesAPositionOrActionThePointDoesNotSupport() {
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.CHECKPOINT_STORAGE,
                    new FaultPosition.AfterEvent(3),
                    FaultAction.THROW,
                    ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot fire at after-event:3")
        .hasMessageContaining("now, at-checkpoint");
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.SOURCE_ENUMERATOR,
                    new FaultPosition.Now(),
                    FaultAction.STALL,
                    ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot stall");
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.SINK_COMMIT,
                    new FaultPosition.AroundCommit(2, false),
                    FaultAction.FAIL_COMMIT_AFTER_SWAP,
                    ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("contradicts");
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
  }

  @Test
  void refusesToArmTheSameFaultIdTwice() {
    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);

    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.SINK_COMMIT, new FaultPosition.Now(), "throw", ID))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("armed already");
  }

  @Test
  void readsActionsInTextFormAndListsThemOnABadOne() {
    assertThat(FaultAction.parse("fail-commit-after-swap"))
        .isEqualTo(FaultAction.FAIL_COMMIT_AFTER_SWAP);
    assertThat(FaultAction.parse("COMMIT_STATE_UNKNOWN"))
        .isEqualTo(FaultAction.COMMIT_STATE_UNKNOWN);
    assertThatThrownBy(() -> FaultAction.parse("explode"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("throw, stall, throw-on-checkpoint-complete");
  }

  @Test
  void exactlyOneCallerSeesTheCountPassItsThreshold() {
    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(2), "throw", ID);
    Arming arming = FaultSwitchboard.armed(FaultSwitchboard.OPERATOR).get(0);

    assertThat(arming.countPast(2)).isFalse();
    assertThat(arming.countPast(2)).isFalse();
    assertThat(arming.countPast(2)).isTrue();
    assertThat(arming.countPast(2)).isFalse();
  }
}
