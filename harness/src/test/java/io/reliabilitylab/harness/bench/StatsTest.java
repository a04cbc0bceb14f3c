package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StatsTest {

  @Test
  void percentilesAreNearestRank() {
    long[] sorted = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    assertThat(Stats.percentile(sorted, 50)).isEqualTo(50);
    assertThat(Stats.percentile(sorted, 99)).isEqualTo(100);
    assertThat(Stats.percentile(sorted, 10)).isEqualTo(10);
    assertThat(Stats.percentile(sorted, 11)).isEqualTo(20);
    assertThat(Stats.percentile(sorted, 100)).isEqualTo(100);
  }

  @Test
  void aSingleValueIsEveryPercentile() {
    assertThat(Stats.percentile(new long[] {7}, 1)).isEqualTo(7);
    assertThat(Stats.percentile(new long[] {7}, 99)).isEqualTo(7);
  }

  @Test
  void aPercentileNeedsValuesAndARange() {
    assertThatThrownBy(() -> Stats.percentile(new long[0], 50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("No values");
    assertThatThrownBy(() -> Stats.percentile(new long[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("(0, 100]");
  }

  @Test
  void latencySummarisesUnsortedMillisAndClampsClockJitter() {
    BenchReport.Latency latency = Stats.latency(new long[] {900, -3, 1_200, 1_000, 2_400});
    assertThat(latency.samples()).isEqualTo(5);
    assertThat(latency.p50()).isEqualTo(1_000);
    assertThat(latency.p99()).isEqualTo(2_400);
    assertThat(latency.max()).isEqualTo(2_400);
  }

  @Test
  void noSamplesIsAnEmptySummary() {
    assertThat(Stats.latency(new long[0])).isEqualTo(new BenchReport.Latency(0, 0, 0, 0));
  }

  @Test
  void ratesArePerSecondToOneDecimal() {
    assertThat(Stats.perSecond(50_000, Duration.ofMillis(800))).isEqualTo(62_500.0);
    assertThat(Stats.perSecond(1, Duration.ofSeconds(3))).isEqualTo(0.3);
    assertThat(Stats.perSecond(0, Duration.ofSeconds(1))).isZero();
    // No division by zero for a phase faster than the clock.
    assertThat(Stats.perSecond(5, Duration.ZERO)).isEqualTo(5_000_000.0);
  }

  @Test
  void ratiosHaveThreeDecimalsAndAZeroDenominatorGivesZero() {
    assertThat(Stats.ratio(45_000, 50_000)).isEqualTo(0.9);
    assertThat(Stats.ratio(2, 3)).isEqualTo(0.667);
    assertThat(Stats.ratio(1, 0)).isZero();
  }
}
