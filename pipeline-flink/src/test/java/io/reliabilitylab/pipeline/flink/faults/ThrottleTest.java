package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator point's throttle: a slowed job while armed, never a failure. */
class ThrottleTest {

  private static final String ID = "srl-fault-1-checkpoint-pressure";

  private final OperatorFaultPoint<String> point =
      new OperatorFaultPoint<>(element -> element.startsWith("r"));

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void theTextFormCarriesTheDelayPerElement() {
    assertThat(FaultAction.parse("throttle-2ms")).isEqualTo(FaultAction.THROTTLE);
    assertThat(FaultAction.throttleDelay("throttle-2ms")).isEqualTo(Duration.ofMillis(2));
    assertThat(FaultAction.throttleDelay("throttle-500us")).isEqualTo(Duration.ofNanos(500_000));
    assertThatThrownBy(() -> FaultAction.parse("throttle"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("throttle-2ms");
    assertThatThrownBy(() -> FaultAction.parse("throttle-0ms")).hasMessageContaining("above 0");
    assertThatThrownBy(() -> FaultAction.parse("throttle-5000ms"))
        .hasMessageContaining("at most 1000 ms");
    assertThatThrownBy(() -> FaultAction.parse("throttle-2s"))
        .hasMessageContaining("e.g. throttle-2ms");
  }

  @Test
  void everyElementWaitsWhileArmedAndNothingIsThrown() throws Exception {
    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throttle-20ms", ID);

    long started = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      assertThat(point.map("c" + i)).isEqualTo("c" + i);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(100));
    assertThat(FaultSwitchboard.firing(ID))
        .hasValueSatisfying(
            firing -> {
              assertThat(firing.action()).isEqualTo(FaultAction.THROTTLE);
              assertThat(firing.checkpointId()).isNull();
            });
    assertThat(FaultSwitchboard.anyArmed()).as("a throttle stays armed after it began").isTrue();
  }

  @Test
  void disarmingEndsTheThrottleAndKeepsWhenItBegan() throws Exception {
    FaultSwitchboard.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throttle-50ms", ID);
    point.map("c0");

    FaultSwitchboard.disarm(ID);
    long started = System.nanoTime();
    for (int i = 0; i < 100; i++) {
      point.map("c" + i);
    }

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(50));
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
  }

  @Test
  void aThrottleInTheSnapshotPhaseSlowsTheSnapshotRowsOnly() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR, new FaultPosition.SnapshotPhase(0), "throttle-30ms", ID);

    long started = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      point.map("r" + i);
    }
    Duration snapshot = Duration.ofNanos(System.nanoTime() - started);
    started = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      point.map("c" + i);
    }
    Duration streamed = Duration.ofNanos(System.nanoTime() - started);

    assertThat(snapshot).isGreaterThanOrEqualTo(Duration.ofMillis(90));
    assertThat(streamed)
        .as("changes after the snapshot pass at full speed")
        .isLessThan(Duration.ofMillis(30));
  }

  @Test
  void afterKEventsTheFirstKPassAtFullSpeed() throws Exception {
    FaultSwitchboard.throttle(
        FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(3), Duration.ofMillis(30), ID);

    long started = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      point.map("c" + i);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(30));
    assertThat(FaultSwitchboard.firedAt(ID)).isEmpty();

    started = System.nanoTime();
    point.map("c3");
    point.map("c4");
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(60));
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
  }

  @Test
  void onlyTheOperatorPointThrottlesAndNotFromACheckpoint() {
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.CHECKPOINT_STORAGE,
                    new FaultPosition.Now(),
                    "throttle-2ms",
                    ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot throttle");
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.OPERATOR,
                    new FaultPosition.AtCheckpoint(3),
                    "throttle-2ms",
                    ID))
        .hasMessageContaining("now, after-event:K or snapshot-phase:K");
    assertThatThrownBy(
            () ->
                FaultSwitchboard.arm(
                    FaultSwitchboard.OPERATOR,
                    new FaultPosition.Now(),
                    FaultAction.THROTTLE,
                    ID,
                    Duration.ofSeconds(1)))
        .hasMessageContaining("delay per element");
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
  }
}
