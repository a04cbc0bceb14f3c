package io.reliabilitylab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class WorkloadGeneratorProperties {

  @Property(tries = 200)
  void theLaterPartOfAWorkloadIsGeneratedAsTheWholeHasIt(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 400) int events,
      @ForAll @IntRange(max = 200) int initialRows,
      @ForAll @IntRange(min = 1, max = 5) int maxChangesPerTransaction,
      @ForAll @IntRange(max = 450) int first) {
    WorkloadConfig config =
        WorkloadConfig.builder()
            .events(events)
            .seed(seed)
            .initialRows(initialRows)
            .maxChangesPerTransaction(maxChangesPerTransaction)
            .build();
    List<SourceTransaction> whole = WorkloadGenerator.generate(config).transactions();

    List<SourceTransaction> later = WorkloadGenerator.transactionsFrom(config, first);

    // Same ordinals, commit times and changes (with their event ids): the bench writes the later
    // part long after the earlier one, and the oracle must not tell the difference.
    assertThat(later).isEqualTo(whole.subList(Math.min(first, whole.size()), whole.size()));
  }
}
