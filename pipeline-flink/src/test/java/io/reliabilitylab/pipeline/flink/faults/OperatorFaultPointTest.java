package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OperatorFaultPointTest {

  private static final String ID = "srl-fault-2-task-exception";

  private final OperatorFaultPoint<String> point =
      new OperatorFaultPoint<>(element -> element.startsWith("r"));

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void passesEveryElementUnchangedAndNeverFailsWhenNotArmed() throws Exception {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      out.add(point.map("c" + i));
    }
    point.snapshotState(checkpoint(1));
    point.notifyCheckpointComplete(1);

    assertThat(out).hasSize(1_000).startsWith("c0", "c1").endsWith("c999");
  }

  @Test
  void throwsOnceAfterKEventsWithTheFaultId() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(3), FaultAction.THROW, ID);

    for (int i = 0; i < 3; i++) {
      assertThat(point.map("c" + i)).isEqualTo("c" + i);
    }
    assertThatThrownBy(() -> point.map("c3"))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageStartingWith(ID)
        .hasMessageContaining("after-event:3");
    assertThat(point.map("c3")).as("fires once").isEqualTo("c3");
    assertThat(FaultSwitchboard.firing(ID))
        .hasValueSatisfying(firing -> assertThat(firing.checkpointId()).isNull());
  }

  @Test
  void theSnapshotPhaseCountsOnlySnapshotRows() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR, new FaultPosition.SnapshotPhase(1), FaultAction.THROW, ID);

    point.map("r1");
    point.map("c1");
    point.map("u1");
    assertThat(FaultSwitchboard.firedAt(ID)).isEmpty();
    assertThatThrownBy(() -> point.map("r2")).hasMessageContaining(ID);
  }

  @Test
  void holdsTheFirstElementUntilItsStartGateOpensThenNeverAgain() throws Exception {
    String gate = StartGates.newGate();
    OperatorFaultPoint<String> gated =
        new OperatorFaultPoint<>(element -> element.startsWith("r"), null, gate);
    CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> mapQuietly(gated, "r1"));
    Thread.sleep(200);
    assertThat(first).as("held at the gate").isNotDone();

    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR, new FaultPosition.SnapshotPhase(0), FaultAction.THROW, ID);
    StartGates.open(gate);

    assertThat(first.get(5, TimeUnit.SECONDS))
        .as("armed before the gate opened: the first snapshot row fires")
        .contains(ID);
    assertThat(gated.map("c1")).as("the gate is passed once").isEqualTo("c1");
  }

  @Test
  void throwsInTheSynchronousPartOfCheckpointN() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR, new FaultPosition.AtCheckpoint(2), FaultAction.THROW, ID);

    point.map("c1");
    point.snapshotState(checkpoint(1));
    assertThatThrownBy(() -> point.snapshotState(checkpoint(2)))
        .hasMessageContaining(ID)
        .hasMessageContaining("synchronous part of checkpoint 2");
    point.snapshotState(checkpoint(3));
    point.notifyCheckpointComplete(3);
    assertThat(FaultSwitchboard.firing(ID))
        .hasValueSatisfying(firing -> assertThat(firing.checkpointId()).isEqualTo(2L));
  }

  @Test
  void throwsOnceWhenCheckpointNCompletes() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR,
        new FaultPosition.AtCheckpoint(2),
        FaultAction.THROW_ON_CHECKPOINT_COMPLETE,
        ID);

    point.snapshotState(checkpoint(2));
    point.notifyCheckpointComplete(1);
    assertThatThrownBy(() -> point.notifyCheckpointComplete(2))
        .hasMessageContaining(ID)
        .hasMessageContaining("notifyCheckpointComplete of checkpoint 2");
    point.notifyCheckpointComplete(3);
  }

  @Test
  void stallsUntilDisarmedThenPassesTheElementOn() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.OPERATOR,
        new FaultPosition.Now(),
        FaultAction.STALL,
        ID,
        Duration.ofMinutes(1));

    CompletableFuture<String> stalled = CompletableFuture.supplyAsync(() -> map("c1"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (FaultSwitchboard.firedAt(ID).isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
    assertThat(stalled).isNotDone();

    FaultSwitchboard.disarm(ID);

    assertThat(stalled.get(10, TimeUnit.SECONDS)).isEqualTo("c1");
  }

  private String map(String element) {
    try {
      return point.map(element);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static FunctionSnapshotContext checkpoint(long id) {
    return new FunctionSnapshotContext() {
      @Override
      public long getCheckpointId() {
        return id;
      }

      @Override
      public long getCheckpointTimestamp() {
        return 0;
      }
    };
  }

  private static String mapQuietly(OperatorFaultPoint<String> point, String element) {
    try {
      return point.map(element);
    } catch (Exception e) {
      return e.getMessage();
    }
  }
}
