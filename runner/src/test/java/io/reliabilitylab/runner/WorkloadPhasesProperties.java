package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workloads;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Segments cover their input in order, one per part, each non-empty and about as large. */
class WorkloadPhasesProperties {

  @Property(tries = 300)
  void segmentsCutTheWritesInOrderIntoTheGivenParts(
      @ForAll("transactions") List<SourceTransaction> rest,
      @ForAll @IntRange(min = 1, max = 6) int parts) {
    List<List<SourceTransaction>> segments = WorkloadPhases.segments(rest, parts);

    assertThat(segments).hasSize(parts);
    assertThat(WorkloadPhasesTest.concat(segments)).isEqualTo(rest);
    if (rest.size() >= parts) {
      assertThat(segments).noneMatch(List::isEmpty);
    } else {
      assertThat(segments.stream().filter(List::isEmpty)).hasSize(parts - rest.size());
    }
  }

  @Property(tries = 300)
  void segmentsAreBalancedWithinOneTransaction(
      @ForAll("transactions") List<SourceTransaction> rest,
      @ForAll @IntRange(min = 1, max = 6) int parts) {
    long total = rest.stream().mapToLong(t -> t.changes().size()).sum();
    long largest = rest.stream().mapToLong(t -> t.changes().size()).max().orElse(0);
    double share = (double) total / parts;

    List<Long> changes = WorkloadPhasesTest.changes(WorkloadPhases.segments(rest, parts));

    // a cut falls between transactions, so a segment is off its share by less than the largest
    assertThat(changes)
        .as("segments of %s changes in %d parts, largest transaction %d", total, parts, largest)
        .allSatisfy(c -> assertThat((double) c).isBetween(share - largest, share + largest));
  }

  @Property(tries = 200)
  void theBaselineAndTheRestMakeTheWholeWorkload(
      @ForAll @IntRange(min = 0, max = 10_000) int transactions) {
    int baseline = WorkloadPhases.baselineCount(transactions);

    assertThat(baseline).isEqualTo(transactions / 2);
    assertThat(transactions - baseline).isGreaterThanOrEqualTo(baseline);
  }

  @Provide
  Arbitrary<List<SourceTransaction>> transactions() {
    return Workloads.workloads(0, 60).map(workload -> workload.transactions());
  }
}
