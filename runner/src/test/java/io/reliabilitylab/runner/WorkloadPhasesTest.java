package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.workload.Operation;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a scenario cuts its workload, where a fault counted from its injection fires, and the order a
 * plan's snapshot-phase faults must take.
 */
class WorkloadPhasesTest {

  // --- baseline

  @Test
  void theBaselineIsTheFirstHalfOfTheTransactionsRoundedDown() {
    assertThat(WorkloadPhases.baselineCount(0)).isZero();
    assertThat(WorkloadPhases.baselineCount(1)).isZero();
    assertThat(WorkloadPhases.baselineCount(2)).isEqualTo(1);
    assertThat(WorkloadPhases.baselineCount(7)).isEqualTo(3);
    assertThat(WorkloadPhases.baselineCount(10)).isEqualTo(5);
  }

  // --- segments

  @Test
  void equalTransactionsAreCutIntoEqualSegments() {
    List<SourceTransaction> rest = transactions(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);

    List<List<SourceTransaction>> segments = WorkloadPhases.segments(rest, 3);

    assertThat(changes(segments)).containsExactly(4L, 4L, 4L);
    assertThat(concat(segments)).isEqualTo(rest);
  }

  @Test
  void segmentsBalanceChangesNotTransactions() {
    List<SourceTransaction> rest = transactions(5, 1, 1, 1, 1, 1);

    List<List<SourceTransaction>> segments = WorkloadPhases.segments(rest, 2);

    assertThat(changes(segments)).containsExactly(5L, 5L);
    assertThat(segments.get(0)).containsExactly(rest.get(0));
  }

  @Test
  void aLargeTransactionLeavesEveryLaterSegmentOne() {
    // the first segment would take all four to reach half the changes; it leaves the last one
    List<SourceTransaction> rest = transactions(1, 1, 1, 100);

    assertThat(changes(WorkloadPhases.segments(rest, 2))).containsExactly(3L, 100L);
    // a large first transaction is a segment of its own, and each later segment still gets one
    assertThat(changes(WorkloadPhases.segments(transactions(100, 1, 1, 1), 3)))
        .containsExactly(100L, 1L, 2L);
  }

  @Test
  void asManyTransactionsAsPartsGiveOneEach() {
    List<SourceTransaction> rest = transactions(3, 1, 7);

    assertThat(WorkloadPhases.segments(rest, 3))
        .containsExactly(List.of(rest.get(0)), List.of(rest.get(1)), List.of(rest.get(2)));
  }

  @Test
  void oneSegmentHoldsEverything() {
    List<SourceTransaction> rest = transactions(2, 3, 4);

    assertThat(WorkloadPhases.segments(rest, 1)).containsExactly(rest);
  }

  @Test
  void noTransactionsGiveEmptySegments() {
    assertThat(WorkloadPhases.segments(List.of(), 3)).hasSize(3).allMatch(List::isEmpty);
  }

  @Test
  void fewerTransactionsThanPartsStillGiveEveryPartASegment() {
    List<List<SourceTransaction>> segments = WorkloadPhases.segments(transactions(2, 2), 3);

    assertThat(segments).hasSize(3);
    assertThat(concat(segments)).isEqualTo(transactions(2, 2));
    assertThat(segments.stream().filter(List::isEmpty)).hasSize(1);
  }

  @Test
  void fewerTransactionsThanPartsLeaveTheLastSegmentsEmpty() {
    List<SourceTransaction> rest = transactions(2, 2);

    assertThat(WorkloadPhases.segments(rest, 3))
        .containsExactly(List.of(rest.get(0)), List.of(rest.get(1)), List.of());
  }

  @Test
  void fewerThanOnePartIsRejected() {
    assertThatThrownBy(() -> WorkloadPhases.segments(transactions(1, 1), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A workload is cut into at least one segment, not 0");
    assertThatThrownBy(() -> WorkloadPhases.segments(List.of(), -2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one segment, not -2");
  }

  // --- positions counted from the injection

  @Test
  void aCheckpointCountedFromTheInjectionFollowsTheLatestCheckpoint() {
    PlannedFault fault =
        new PlannedFault("checkpoint-failure", new FaultPosition.AtCheckpoint(2), Map.of(), true);

    assertThat(fault.resolvedPosition(7)).isEqualTo(new FaultPosition.AtCheckpoint(9));
    assertThat(fault.resolvedPosition(0)).isEqualTo(new FaultPosition.AtCheckpoint(2));
  }

  @Test
  void aCommitCountedFromTheInjectionKeepsItsSide() {
    assertThat(
            new PlannedFault(
                    "sink-commit-failure", new FaultPosition.AroundCommit(1, true), Map.of(), true)
                .resolvedPosition(7))
        .isEqualTo(new FaultPosition.AroundCommit(8, true));
    assertThat(
            new PlannedFault(
                    "sink-commit-failure", new FaultPosition.AroundCommit(2, false), Map.of(), true)
                .resolvedPosition(7))
        .isEqualTo(new FaultPosition.AroundCommit(9, false));
  }

  @Test
  void eventRowAndImmediatePositionsDoNotDependOnCheckpoints() {
    for (FaultPosition position :
        List.of(
            new FaultPosition.AfterEvent(12),
            new FaultPosition.SnapshotPhase(3),
            new FaultPosition.Now())) {
      assertThat(new PlannedFault("task-exception", position, Map.of(), true).resolvedPosition(7))
          .isEqualTo(position);
    }
  }

  @Test
  void aPositionCountedFromTheJobsStartIsNotMoved() {
    assertThat(
            new PlannedFault("checkpoint-failure", new FaultPosition.AtCheckpoint(2), Map.of())
                .resolvedPosition(7))
        .isEqualTo(new FaultPosition.AtCheckpoint(2));
    assertThat(
            new PlannedFault(
                    "sink-commit-failure", new FaultPosition.AroundCommit(2, true), Map.of(), false)
                .resolvedPosition(7))
        .isEqualTo(new FaultPosition.AroundCommit(2, true));
  }

  @Test
  void theRunnersDefaultPositionStaysTheRunnersToPick() {
    assertThat(new PlannedFault("task-failure", null, Map.of(), true).resolvedPosition(7)).isNull();
    assertThat(PlannedFault.of("task-failure").resolvedPosition(7)).isNull();
    assertThat(PlannedFault.of("task-failure").countedFromInjection()).isFalse();
  }

  // --- snapshot-phase faults in a plan

  @Test
  void aSnapshotPhaseFaultAfterALaterOneIsRejected() {
    assertThatThrownBy(
            () ->
                plan(
                    fault(new FaultPosition.AfterEvent(3)),
                    fault(new FaultPosition.SnapshotPhase(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Scenario 'explore'")
        .hasMessageContaining("snapshot-phase fault after a fault that fires later")
        .hasMessageContaining("list its faults first");
    assertThatThrownBy(
            () ->
                plan(
                    fault(new FaultPosition.SnapshotPhase(1)),
                    fault(new FaultPosition.Now()),
                    fault(new FaultPosition.SnapshotPhase(2))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> plan(PlannedFault.of("task-failure"), fault(new FaultPosition.SnapshotPhase(1))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void snapshotPhaseFaultsCountTheLeadingOnes() {
    assertThat(plan().snapshotPhaseFaults()).isZero();
    assertThat(plan(fault(new FaultPosition.Now())).snapshotPhaseFaults()).isZero();
    assertThat(
            plan(
                    fault(new FaultPosition.SnapshotPhase(0)),
                    fault(new FaultPosition.AtCheckpoint(1)))
                .snapshotPhaseFaults())
        .isEqualTo(1);
    ScenarioPlan two =
        plan(
            fault(new FaultPosition.SnapshotPhase(0)),
            fault(new FaultPosition.SnapshotPhase(4)),
            fault(new FaultPosition.AfterEvent(2)));
    assertThat(two.snapshotPhaseFaults()).isEqualTo(2);
    assertThat(two.faultsInSnapshotPhase()).isTrue();
    assertThat(plan(fault(new FaultPosition.Now())).faultsInSnapshotPhase()).isFalse();
  }

  // --- helpers

  private static PlannedFault fault(FaultPosition position) {
    return new PlannedFault("task-exception", position, Map.of(), true);
  }

  private static ScenarioPlan plan(PlannedFault... faults) {
    return new ScenarioPlan(
        "direct",
        "explore",
        0,
        10,
        Map.of(),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        List.of(faults));
  }

  /** Transactions of these change counts, each change the insert of a fresh row. */
  static List<SourceTransaction> transactions(int... sizes) {
    List<Workloads.Intent> intents = new ArrayList<>();
    for (int size : sizes) {
      for (int i = 0; i < size; i++) {
        intents.add(new Workloads.Intent(Operation.INSERT, 1, 0, i == size - 1));
      }
    }
    return Workloads.interpret(intents).transactions();
  }

  static List<Long> changes(List<List<SourceTransaction>> segments) {
    return segments.stream()
        .map(segment -> segment.stream().mapToLong(t -> t.changes().size()).sum())
        .toList();
  }

  static List<SourceTransaction> concat(List<List<SourceTransaction>> segments) {
    return segments.stream().flatMap(List::stream).toList();
  }
}
