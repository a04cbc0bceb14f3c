package io.reliabilitylab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class WorkloadsProperties {

  @Property(tries = 500)
  void workloadsStayWithinTheirBoundsAndWriteIncreasingEventIds(
      @ForAll("workloads") Workload workload) {
    assertThat(workload.changeCount()).isBetween(1L, 30L);
    List<Long> written = new ArrayList<>();
    for (SourceTransaction transaction : workload.transactions()) {
      for (SourceChange change : transaction.changes()) {
        if (change.writtenEventId() != null) {
          written.add(change.writtenEventId());
        }
      }
    }
    assertThat(written).isSorted().doesNotHaveDuplicates();
  }

  @Property(tries = 300)
  void interpretingFewerIntentsGivesAPrefixOfTheChanges(
      @ForAll("intents") List<Workloads.Intent> intents, @ForAll @IntRange(max = 30) int cut) {
    int kept = Math.min(cut, intents.size());

    List<SourceChange> whole = changes(Workloads.interpret(intents));
    List<SourceChange> shorter = changes(Workloads.interpret(intents.subList(0, kept)));

    // Removing intents from the end removes changes from the end: shrinking the list shrinks
    // the workload without changing what is left.
    assertThat(shorter).hasSize(kept).isEqualTo(whole.subList(0, kept));
  }

  @Test
  void sampledWorkloadsExerciseEveryFeature() {
    WorkloadGeneratorTest.Features total = new WorkloadGeneratorTest.Features();
    Workloads.workloads(20, 40)
        .sampleStream()
        .limit(200)
        .forEach(
            workload -> {
              WorkloadGeneratorTest.Features features =
                  WorkloadGeneratorTest.Features.of(workload, 3);
              total.transactionsChangingOneKeyTwice += features.transactionsChangingOneKeyTwice;
              total.updatesOfJustInsertedRows += features.updatesOfJustInsertedRows;
              total.primaryKeyUpdates += features.primaryKeyUpdates;
              total.deletes += features.deletes;
              total.reinserts += features.reinserts;
            });

    assertThat(total.transactionsChangingOneKeyTwice).isPositive();
    assertThat(total.updatesOfJustInsertedRows).isPositive();
    assertThat(total.primaryKeyUpdates).isPositive();
    assertThat(total.deletes).isPositive();
    assertThat(total.reinserts).isPositive();
  }

  @Provide
  Arbitrary<Workload> workloads() {
    return Workloads.workloads(1, 30);
  }

  @Provide
  Arbitrary<List<Workloads.Intent>> intents() {
    return Workloads.intents().list().ofMaxSize(30);
  }

  private static List<SourceChange> changes(Workload workload) {
    List<SourceChange> changes = new ArrayList<>();
    workload.transactions().forEach(transaction -> changes.addAll(transaction.changes()));
    return changes;
  }
}
