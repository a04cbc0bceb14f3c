package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchConfigTest {

  @Test
  void theDefaultsAreSmallEnoughForAMinute() {
    BenchConfig config = BenchConfig.builder().build();
    assertThat(config.orderedModes()).containsExactly(BenchMode.SINGLE, BenchMode.BATCHED);
    assertThat(config.events(BenchMode.BATCHED)).isEqualTo(50_000);
    assertThat(config.events(BenchMode.SINGLE)).isEqualTo(10_000);
    assertThat(config.initialRows()).isEqualTo(20_000);
    assertThat(config.transactionsPerCommit(BenchMode.SINGLE)).isEqualTo(1);
    assertThat(config.transactionsPerCommit(BenchMode.BATCHED)).isEqualTo(500);
    assertThat(config.sustain()).isNull();
  }

  @Test
  void theSustainPhaseRunsBatchedWhenBatchedIsMeasured() {
    BenchConfig both = BenchConfig.builder().sustain(Duration.ofMinutes(5), 50_000).build();
    assertThat(both.sustainMode()).isEqualTo(BenchMode.BATCHED);
    BenchConfig single =
        BenchConfig.builder()
            .modes(Set.of(BenchMode.SINGLE))
            .sustain(Duration.ofSeconds(30), 1_000)
            .build();
    assertThat(single.sustainMode()).isEqualTo(BenchMode.SINGLE);
  }

  @Test
  void describeListsTheSettingsAndThePipelineOptions() {
    Map<String, String> settings =
        BenchConfig.builder()
            .pipelineOptions(Map.of("checkpoint.interval-ms", "1000"))
            .sustain(Duration.ofMinutes(1), 2_000)
            .build()
            .describe();
    assertThat(settings)
        .containsEntry("bench.modes", "single,batched")
        .containsEntry("bench.batched-events", "50000")
        .containsEntry("bench.sustain-ms", "60000")
        .containsEntry("pipeline.checkpoint.interval-ms", "1000");
  }

  @Test
  void badSettingsSayWhatIsWrong() {
    assertThatThrownBy(() -> BenchConfig.builder().modes(Set.of()).build())
        .hasMessageContaining("at least one mode");
    assertThatThrownBy(() -> BenchConfig.builder().batchedEvents(0).build())
        .hasMessageContaining("events must be at least 1");
    assertThatThrownBy(() -> BenchConfig.builder().initialRows(-1).build())
        .hasMessageContaining("initial rows");
    assertThatThrownBy(() -> BenchConfig.builder().sustain(Duration.ofMinutes(1), 0).build())
        .hasMessageContaining("positive rate");
  }

  @Test
  void transactionsAreSplitAtTheThroughputPhasesChangeCount() {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder().events(300).maxChangesPerTransaction(1).build());
    assertThat(Transactions.holding(workload.transactions(), 100)).isEqualTo(100);
    assertThat(Transactions.holding(workload.transactions(), 1_000))
        .isEqualTo(workload.transactions().size());
  }
}
