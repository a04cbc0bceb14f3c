package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.pipeline.LabOptions;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultPhaseTest {

  @ParameterizedTest(name = "checkpoint interval {0} ms: segment over {1} ms")
  @CsvSource({"100, 2500", "500, 2500", "600, 3000", "800, 4000", "1000, 4000", "60000, 4000"})
  void aFaultsSegmentSpansFiveCheckpointIntervalsWithinItsBounds(String interval, long span) {
    ScenarioPlan plan =
        ScenarioPlan.of("direct", "task-failure", 7, 100)
            .withOption(LabOptions.CHECKPOINT_INTERVAL_MS, interval);

    assertThat(FaultPhase.span(plan)).isEqualTo(Duration.ofMillis(span));
  }

  @ParameterizedTest
  @CsvSource({"''", "1s", "-5"})
  void withoutAnIntervalInMillisecondsTheSegmentTakesTheLongestSpan(String interval) {
    ScenarioPlan plan =
        ScenarioPlan.of("direct", "task-failure", 7, 100)
            .withOption(LabOptions.CHECKPOINT_INTERVAL_MS, interval);

    assertThat(FaultPhase.span(plan)).isEqualTo(Duration.ofSeconds(4));
    assertThat(FaultPhase.span(ScenarioPlan.of("direct", "task-failure", 7, 100)))
        .isEqualTo(Duration.ofSeconds(4));
  }
}
