package io.reliabilitylab.harness.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.WorkloadPhases;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every case the space draws can fire all its faults inside the writes that reach them. */
class ExploreSpaceProperties {

  private static final ExploreSpace SPACE =
      new ExploreSpace(ExploreSpaceTest.FAULTS, ExploreSpaceTest.DIRECT);

  @Property(tries = 50)
  void drawnCasesAreFeasibleWithOneToThreeFaultsAndOnlyTheFirstInTheSnapshot(
      @ForAll("cases") ExploreCase exploreCase) {
    List<ScheduledFault> schedule = exploreCase.schedule();

    assertThat(ExploreSpace.feasible(exploreCase)).isTrue();
    assertThat(schedule).hasSizeBetween(1, ExploreSpace.MAX_FAULTS);
    assertThat(schedule.subList(1, schedule.size()))
        .noneMatch(f -> f.position() instanceof FaultPosition.SnapshotPhase);
    assertThat(exploreCase.workload().changeCount()).isBetween(1L, 40L);
    assertThat(SPACE.cells())
        .contains(schedule.stream().map(ScheduledFault::cell).toArray(String[]::new));
  }

  @Property(tries = 50)
  void plannedCountsFallInsideTheWritesThatReachThem(@ForAll("cases") ExploreCase exploreCase) {
    List<ScheduledFault> schedule = exploreCase.schedule();
    List<SourceTransaction> transactions = exploreCase.workload().transactions();
    int baseline = WorkloadPhases.baselineCount(transactions.size());
    List<List<SourceTransaction>> segments =
        WorkloadPhases.segments(
            transactions.subList(baseline, transactions.size()), schedule.size());
    int baselineRows = liveRows(transactions.subList(0, baseline));

    List<PlannedFault> planned = SPACE.plannedFaults(exploreCase);

    assertThat(planned).hasSameSizeAs(schedule);
    for (int index = 0; index < planned.size(); index++) {
      PlannedFault fault = planned.get(index);
      FaultPosition drawn = schedule.get(index).position();
      assertThat(fault.fault()).isEqualTo(schedule.get(index).fault());
      assertThat(fault.countedFromInjection()).isTrue();
      assertThat(fault.position()).isNotNull();
      assertThat(fault.position().kind()).isEqualTo(drawn.kind());
      if (fault.position() instanceof FaultPosition.AfterEvent after) {
        long changes = segments.get(index).stream().mapToLong(t -> t.changes().size()).sum();
        assertThat(after.events())
            .as("%s in a segment of %d changes", after, changes)
            .isLessThan(changes)
            .isLessThanOrEqualTo(((FaultPosition.AfterEvent) drawn).events());
      } else if (fault.position() instanceof FaultPosition.SnapshotPhase snapshot) {
        assertThat(snapshot.rows())
            .as("%s over %d baseline rows", snapshot, baselineRows)
            .isLessThan(baselineRows)
            .isLessThanOrEqualTo(((FaultPosition.SnapshotPhase) drawn).rows());
      } else {
        assertThat(fault.position()).isEqualTo(drawn);
      }
    }
    // the scenario runner takes the plan as it is
    Workload workload = exploreCase.workload();
    ScenarioPlan plan =
        new ScenarioPlan(
            "direct",
            "explore",
            workload.config().seed(),
            (int) workload.changeCount(),
            Map.of(),
            Duration.ofSeconds(60),
            Duration.ofSeconds(60),
            planned);
    assertThat(plan.snapshotPhaseFaults())
        .isEqualTo(schedule.get(0).position() instanceof FaultPosition.SnapshotPhase ? 1 : 0);
  }

  @Provide
  Arbitrary<ExploreCase> cases() {
    return SPACE.cases(1, 40);
  }

  /** Rows the table holds after these transactions, folded independently of the space. */
  private static int liveRows(List<SourceTransaction> transactions) {
    Set<RowKey> live = new HashSet<>();
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Update update) {
          live.remove(update.before().key());
          live.add(update.after().key());
        } else if (change instanceof SourceChange.Delete) {
          live.remove(change.key());
        } else {
          live.add(change.key());
        }
      }
    }
    return live.size();
  }
}
