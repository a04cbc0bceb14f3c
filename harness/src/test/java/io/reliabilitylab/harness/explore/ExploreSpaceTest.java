package io.reliabilitylab.harness.explore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.WorkloadPhases;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultPosition.Kind;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.workload.Operation;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workloads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The explorer's space over the built-in faults: its choices, cells, feasibility and planning. */
class ExploreSpaceTest {

  /**
   * What the direct pipeline on its embedded cluster offers ({@code
   * FlinkPipeline.EMBEDDED_CAPABILITIES}, which the harness's tests cannot see): no broker, no
   * source connector, no dead-letter queue.
   */
  static final Set<Class<? extends PipelineCapability>> DIRECT =
      Set.of(
          JobControl.class,
          TableAccess.class,
          FaultPoints.class,
          SavepointControl.class,
          TaskManagerControl.class,
          TableMaintenance.class,
          SourceEndpointAccess.class);

  static final List<FaultInjector> FAULTS =
      Discovered.faults(ExploreSpaceTest.class.getClassLoader()).all();

  private static final ExploreSpace EVERY = new ExploreSpace(FAULTS, Set.of());
  private static final ExploreSpace DIRECT_SPACE = new ExploreSpace(FAULTS, DIRECT);

  // --- choices

  @Test
  void knownHazardVariantsAreNeverChoices() {
    assertThat(names(EVERY))
        .contains("savepoint-restore", "poison-message")
        .doesNotContain("savepoint-restore:older-savepoint", "poison-message:unrepaired");
    assertThat(EVERY.choices()).allSatisfy(c -> assertThat(c.variant().knownHazard()).isNull());
  }

  @Test
  void everyCapabilityIsAssumedWhenNoneIsOffered() {
    assertThat(faultNames(EVERY))
        .contains("broker-restart", "duplicate-redelivery", "poison-message", "task-exception");
  }

  @Test
  void theDirectPipelinesCapabilitiesExcludeTheBrokerFaults() {
    assertThat(faultNames(DIRECT_SPACE))
        .containsExactly(
            "checkpoint-failure",
            "coordinator-failure",
            "savepoint-restore",
            "sink-commit-failure",
            "task-exception",
            "task-failure");
    // left out: the network faults' variants (a pipeline option, which a schedule of several
    // faults does not set up) and the faults that act on the source from outside the job
    assertThat(DIRECT_SPACE.choices())
        .allSatisfy(c -> assertThat(DIRECT).containsAll(c.injector().requiredCapabilities()));
  }

  @Test
  void choicesFollowTheFaultsNamesWhateverOrderTheyWereFoundIn() {
    List<FaultInjector> reversed = new ArrayList<>(FAULTS);
    Collections.reverse(reversed);

    assertThat(names(new ExploreSpace(reversed, DIRECT))).isEqualTo(names(DIRECT_SPACE));
    assertThat(faultNames(DIRECT_SPACE)).isSorted();
  }

  @Test
  void aPipelineThatCanTakeNoFaultIsRejected() {
    assertThatThrownBy(() -> new ExploreSpace(FAULTS, Set.of(TableAccess.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("No fault to explore");
  }

  @Test
  void eachChoiceTakesTheKindsOfPositionItsVariantAllows() {
    Map<String, List<Kind>> kinds = kinds(DIRECT_SPACE);

    // the default variant's position is only a default: every supported kind but the snapshot's
    assertThat(kinds.get("task-exception"))
        .containsExactly(Kind.NOW, Kind.AFTER_EVENT, Kind.AT_CHECKPOINT);
    // the enumerator sees split requests, not events: never after-event
    assertThat(kinds.get("coordinator-failure")).containsExactly(Kind.NOW, Kind.AT_CHECKPOINT);
    assertThat(kinds.get("sink-commit-failure"))
        .containsExactly(Kind.AT_CHECKPOINT, Kind.AROUND_COMMIT);
    assertThat(kinds.get("task-failure")).containsExactly(Kind.NOW, Kind.AFTER_EVENT);
    assertThat(kinds.get("savepoint-restore")).containsExactly(Kind.NOW);
    // pinned to the snapshot phase
    assertThat(kinds.get("task-exception:snapshot-phase")).containsExactly(Kind.SNAPSHOT_PHASE);
    assertThat(kinds.get("task-failure:snapshot-phase")).containsExactly(Kind.SNAPSHOT_PHASE);
    // unpinned, with a side the parameters fix: at-checkpoint only
    assertThat(kinds.get("sink-commit-failure:fail-after-swap"))
        .containsExactly(Kind.AT_CHECKPOINT);
    assertThat(kinds.get("sink-commit-failure:commit-state-unknown"))
        .containsExactly(Kind.AT_CHECKPOINT);
    assertThat(kinds.get("sink-commit-failure:several-pending"))
        .containsExactly(Kind.AT_CHECKPOINT);
    assertThat(kinds.get("checkpoint-failure:expired")).containsExactly(Kind.AT_CHECKPOINT);
    assertThat(kinds.get("checkpoint-failure:restart-sync")).containsExactly(Kind.AT_CHECKPOINT);
    // pinned to now
    assertThat(kinds.get("coordinator-failure:cluster-dies")).containsExactly(Kind.NOW);
  }

  @Test
  void cellsListEveryChoiceAtEveryKind() {
    List<String> expected = new ArrayList<>();
    DIRECT_SPACE
        .choices()
        .forEach(c -> c.kinds().forEach(k -> expected.add(ExploreSpace.cell(c.name(), k))));

    assertThat(DIRECT_SPACE.cells())
        .containsExactlyElementsOf(expected)
        .doesNotHaveDuplicates()
        .contains(
            "task-exception × now",
            "task-exception × after-event",
            "task-exception × at-checkpoint",
            "task-exception:snapshot-phase × snapshot-phase",
            "sink-commit-failure × around-commit",
            "coordinator-failure:cluster-dies × now")
        .doesNotContain(
            "task-exception × snapshot-phase",
            "sink-commit-failure:fail-after-swap × around-commit");
    assertThat(DIRECT_SPACE.emptyCoverage())
        .containsOnlyKeys(DIRECT_SPACE.cells())
        .allSatisfy((cell, count) -> assertThat(count).isZero());
    assertThat(List.copyOf(DIRECT_SPACE.emptyCoverage().keySet())).isEqualTo(DIRECT_SPACE.cells());
  }

  @Test
  void aScheduledFaultFallsInTheCellOfItsChoiceAndKind() {
    assertThat(
            new ScheduledFault(
                    "sink-commit-failure", "fail-after-swap", new FaultPosition.AtCheckpoint(2))
                .cell())
        .isEqualTo("sink-commit-failure:fail-after-swap × at-checkpoint");
    assertThat(fault("task-exception@after-event:3").cell())
        .isEqualTo("task-exception × after-event");
  }

  // --- feasibility

  @Test
  void aSnapshotPhaseFaultMustComeFirst() {
    List<Workloads.Intent> intents = singleChangeTransactions(8);

    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    intents,
                    "task-exception@now",
                    "task-exception:snapshot-phase@snapshot-phase:0")))
        .isFalse();
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    intents,
                    "task-exception:snapshot-phase@snapshot-phase:0",
                    "task-exception@now")))
        .isTrue();
  }

  @Test
  void eachFaultNeedsATransactionAfterTheBaseline() {
    // three transactions: one in the baseline, two after it
    List<Workloads.Intent> three = singleChangeTransactions(3);

    assertThat(ExploreSpace.feasible(exploreCase(three, "task-exception@now", "task-failure@now")))
        .isTrue();
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    three, "task-exception@now", "task-failure@now", "savepoint-restore@now")))
        .isFalse();
    // many changes do not help when they are one transaction
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    transaction(Operation.INSERT, 10), "task-exception@now", "task-failure@now")))
        .isFalse();
  }

  @Test
  void aSnapshotPhaseFaultNeedsBaselineRows() {
    // one transaction: the baseline is empty
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    singleChangeTransactions(1), "task-exception:snapshot-phase@snapshot-phase:0")))
        .isFalse();
    // the baseline inserts a row and deletes it again: no row for the snapshot to read
    List<Workloads.Intent> deletedBaseline =
        List.of(
            intent(Operation.INSERT, 1, true),
            intent(Operation.DELETE, 0, true),
            intent(Operation.INSERT, 1, true),
            intent(Operation.INSERT, 1, true));
    assertThat(
            ExploreSpace.feasible(
                exploreCase(deletedBaseline, "task-exception:snapshot-phase@snapshot-phase:0")))
        .isFalse();
    // the same without the delete: one row
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    singleChangeTransactions(2), "task-exception:snapshot-phase@snapshot-phase:0")))
        .isTrue();
  }

  @Test
  void aCaseWithoutFaultsOrWithTooManyIsNotFeasible() {
    List<Workloads.Intent> intents = singleChangeTransactions(20);

    assertThat(ExploreSpace.feasible(new ExploreCase(intents, List.of()))).isFalse();
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    intents,
                    "task-exception@now",
                    "task-exception@now",
                    "task-exception@now",
                    "task-exception@now")))
        .isFalse();
  }

  @Test
  void aGoodCaseIsFeasible() {
    assertThat(
            ExploreSpace.feasible(
                exploreCase(
                    singleChangeTransactions(6),
                    "task-exception:snapshot-phase@snapshot-phase:5",
                    "task-exception@after-event:3",
                    "sink-commit-failure@around-commit:1:after-swap")))
        .isTrue();
  }

  // --- planning

  @Test
  void anAfterEventCountBeyondItsSegmentIsPlacedOnItsLastChange() {
    // a single-change transaction of baseline, then one transaction of five changes
    List<Workloads.Intent> intents = new ArrayList<>(singleChangeTransactions(1));
    intents.addAll(transaction(Operation.INSERT, 5));

    assertThat(
            positions(
                DIRECT_SPACE.plannedFaults(exploreCase(intents, "task-exception@after-event:200"))))
        .containsExactly("after-event:4");
    assertThat(
            positions(
                DIRECT_SPACE.plannedFaults(exploreCase(intents, "task-exception@after-event:3"))))
        .containsExactly("after-event:3");
    assertThat(
            positions(
                DIRECT_SPACE.plannedFaults(exploreCase(intents, "task-exception@after-event:0"))))
        .containsExactly("after-event:0");
  }

  @Test
  void eachAfterEventCountIsPlacedWithinItsOwnSegment() {
    // baseline: 4 one-change transactions; after it: transactions of 3, 1, 1, 6 changes
    List<Workloads.Intent> intents = new ArrayList<>(singleChangeTransactions(4));
    intents.addAll(transaction(Operation.INSERT, 3));
    intents.addAll(transaction(Operation.UPDATE, 1));
    intents.addAll(transaction(Operation.UPDATE, 1));
    intents.addAll(transaction(Operation.INSERT, 6));
    ExploreCase exploreCase =
        exploreCase(
            intents,
            "task-exception@after-event:200",
            "task-exception@after-event:200",
            "task-exception@after-event:200");
    List<SourceTransaction> transactions = exploreCase.workload().transactions();
    assertThat(transactions).hasSize(8);
    List<Long> segmentChanges =
        WorkloadPhases.segments(transactions.subList(4, 8), 3).stream()
            .map(s -> s.stream().mapToLong(t -> t.changes().size()).sum())
            .toList();

    List<PlannedFault> planned = DIRECT_SPACE.plannedFaults(exploreCase);

    assertThat(planned)
        .extracting(PlannedFault::position)
        .containsExactly(
            new FaultPosition.AfterEvent(segmentChanges.get(0) - 1),
            new FaultPosition.AfterEvent(segmentChanges.get(1) - 1),
            new FaultPosition.AfterEvent(segmentChanges.get(2) - 1));
    assertThat(segmentChanges).containsExactly(3L, 2L, 6L);
  }

  @Test
  void aChangeCountTheFaultNeedsIsFittedToItsSegment() {
    // baseline: 4 one-change transactions; after it: two segments of 3 and 6 changes
    List<Workloads.Intent> intents = new ArrayList<>(singleChangeTransactions(4));
    intents.addAll(transaction(Operation.INSERT, 3));
    intents.addAll(transaction(Operation.INSERT, 6));

    List<PlannedFault> planned =
        EVERY.plannedFaults(exploreCase(intents, "poison-message@now", "duplicate-redelivery@now"));

    // the defaults (the 5th record, 50 changes) would wait for writes these segments never make
    assertThat(planned.get(0).parameters()).containsEntry("k", "2");
    assertThat(planned.get(1).parameters()).containsEntry("events", "3");
  }

  @Test
  void aSnapshotRowCountIsPlacedWithinTheBaselinesRows() {
    // baseline: three inserted rows
    List<Workloads.Intent> intents = singleChangeTransactions(6);

    assertThat(
            positions(
                DIRECT_SPACE.plannedFaults(
                    exploreCase(intents, "task-failure:snapshot-phase@snapshot-phase:200"))))
        .containsExactly("snapshot-phase:2");
    assertThat(
            positions(
                DIRECT_SPACE.plannedFaults(
                    exploreCase(intents, "task-failure:snapshot-phase@snapshot-phase:1"))))
        .containsExactly("snapshot-phase:1");
  }

  @Test
  void checkpointPositionsStayAsDrawnAndCountFromTheInjection() {
    List<PlannedFault> planned =
        DIRECT_SPACE.plannedFaults(
            exploreCase(
                singleChangeTransactions(6),
                "checkpoint-failure@at-checkpoint:2",
                "sink-commit-failure@around-commit:1:after-swap",
                "task-exception@now"));

    assertThat(planned)
        .extracting(PlannedFault::position)
        .containsExactly(
            new FaultPosition.AtCheckpoint(2),
            new FaultPosition.AroundCommit(1, true),
            new FaultPosition.Now());
    assertThat(planned).allMatch(PlannedFault::countedFromInjection);
    assertThat(planned)
        .extracting(PlannedFault::fault)
        .containsExactly("checkpoint-failure", "sink-commit-failure", "task-exception");
  }

  @Test
  void aVariantsParametersAreCarried() {
    List<PlannedFault> planned =
        DIRECT_SPACE.plannedFaults(
            exploreCase(
                singleChangeTransactions(6),
                "sink-commit-failure:fail-after-swap@at-checkpoint:1",
                "coordinator-failure:cluster-dies@now",
                "task-exception@now"));

    assertThat(planned)
        .extracting(PlannedFault::fault)
        .containsExactly("sink-commit-failure", "coordinator-failure", "task-exception");
    assertThat(planned.get(0).parameters())
        .containsExactly(Map.entry("variant", "fail-after-swap"));
    assertThat(planned.get(1).parameters()).containsExactly(Map.entry("mode", "cluster-dies"));
    assertThat(planned.get(2).parameters()).isEmpty();
  }

  // --- names

  @Test
  void aScheduledFaultReadsBackFromItsText() {
    List<ScheduledFault> faults =
        List.of(
            new ScheduledFault("task-exception", FaultVariant.DEFAULT, new FaultPosition.Now()),
            new ScheduledFault(
                "task-exception", FaultVariant.DEFAULT, new FaultPosition.AfterEvent(12)),
            new ScheduledFault(
                "task-exception", "snapshot-phase", new FaultPosition.SnapshotPhase(7)),
            new ScheduledFault(
                "sink-commit-failure", "fail-after-swap", new FaultPosition.AtCheckpoint(2)),
            new ScheduledFault(
                "sink-commit-failure",
                FaultVariant.DEFAULT,
                new FaultPosition.AroundCommit(1, true)),
            new ScheduledFault(
                "sink-commit-failure",
                FaultVariant.DEFAULT,
                new FaultPosition.AroundCommit(2, false)));

    assertThat(faults).allSatisfy(f -> assertThat(ScheduledFault.parse(f.text())).isEqualTo(f));
    assertThat(faults.get(0).text()).isEqualTo("task-exception@now");
    assertThat(faults.get(3).text())
        .isEqualTo("sink-commit-failure:fail-after-swap@at-checkpoint:2");
    assertThat(faults.get(3).toString()).isEqualTo(faults.get(3).text());
  }

  @Test
  void aScheduledFaultWithoutPositionIsRejected() {
    assertThatThrownBy(() -> ScheduledFault.parse("task-exception"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("<fault>[:<variant>]@<position>")
        .hasMessageContaining("'task-exception'");
    assertThatThrownBy(() -> ScheduledFault.parse("@now"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ScheduledFault.parse("task-exception@later"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown fault position 'later'");
  }

  @Test
  void aCaseDescribesItsSchedule() {
    ExploreCase exploreCase =
        exploreCase(
            singleChangeTransactions(4),
            "task-exception@after-event:3",
            "sink-commit-failure:several-pending@at-checkpoint:1");

    assertThat(exploreCase.scheduleText())
        .isEqualTo(
            "task-exception@after-event:3, sink-commit-failure:several-pending@at-checkpoint:1");
    assertThat(exploreCase.describe())
        .isEqualTo("4 changes in 4 transactions; faults: " + exploreCase.scheduleText());
  }

  @Test
  void anUnknownChoiceIsNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> DIRECT_SPACE.variant(fault("broker-restart@now")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("broker-restart")
        .hasMessageContaining("known: [")
        .hasMessageContaining("task-exception:snapshot-phase")
        .hasMessageContaining("sink-commit-failure:fail-after-swap");
    assertThatThrownBy(() -> DIRECT_SPACE.variant(fault("task-exception:nope@now")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task-exception:nope");
    // a known hazard is not drawn from either
    assertThatThrownBy(() -> EVERY.variant(fault("savepoint-restore:older-savepoint@now")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("savepoint-restore:older-savepoint");
    assertThat(DIRECT_SPACE.variant(fault("coordinator-failure:cluster-dies@now")).name())
        .isEqualTo("cluster-dies");
  }

  @Test
  void caseBoundsAreChecked() {
    assertThatThrownBy(() -> DIRECT_SPACE.cases(0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0..10");
    assertThatThrownBy(() -> DIRECT_SPACE.cases(5, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5..4");
  }

  // --- helpers

  private static List<String> names(ExploreSpace space) {
    return space.choices().stream().map(ExploreSpace.Choice::name).toList();
  }

  private static List<String> faultNames(ExploreSpace space) {
    return space.choices().stream().map(c -> c.injector().name()).distinct().toList();
  }

  private static Map<String, List<Kind>> kinds(ExploreSpace space) {
    Map<String, List<Kind>> kinds = new LinkedHashMap<>();
    space.choices().forEach(c -> kinds.put(c.name(), c.kinds()));
    return kinds;
  }

  private static List<String> positions(List<PlannedFault> planned) {
    return planned.stream().map(f -> f.position().text()).toList();
  }

  private static ScheduledFault fault(String text) {
    return ScheduledFault.parse(text);
  }

  static ExploreCase exploreCase(List<Workloads.Intent> intents, String... schedule) {
    return new ExploreCase(intents, List.of(schedule).stream().map(ScheduledFault::parse).toList());
  }

  static Workloads.Intent intent(Operation operation, int keyChoice, boolean endsTransaction) {
    return new Workloads.Intent(operation, keyChoice, 0, endsTransaction);
  }

  /** {@code count} transactions of one insert of a fresh row each. */
  static List<Workloads.Intent> singleChangeTransactions(int count) {
    List<Workloads.Intent> intents = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      intents.add(intent(Operation.INSERT, 1, true));
    }
    return intents;
  }

  /** One transaction of {@code changes} changes of this kind. */
  static List<Workloads.Intent> transaction(Operation operation, int changes) {
    List<Workloads.Intent> intents = new ArrayList<>();
    for (int i = 0; i < changes; i++) {
      intents.add(intent(operation, 1, i == changes - 1));
    }
    return intents;
  }
}
