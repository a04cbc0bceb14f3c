package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NotEmpty;
import net.jqwik.api.constraints.Size;

class StatsProperties {

  @Property
  void percentilesAreOrderedAndWithinTheValues(
      @ForAll @NotEmpty @Size(max = 500) List<@LongRange(min = -10, max = 100_000) Long> millis) {
    BenchReport.Latency latency =
        Stats.latency(millis.stream().mapToLong(Long::longValue).toArray());
    assertThat(latency.samples()).isEqualTo(millis.size());
    assertThat(latency.p50()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(latency.p99());
    assertThat(latency.p99()).isLessThanOrEqualTo(latency.max());
    assertThat(latency.max()).isEqualTo(Math.max(0, millis.stream().max(Long::compare).get()));
  }

  @Property
  void atLeastThatShareOfValuesIsAtMostThePercentile(
      @ForAll @NotEmpty @Size(max = 300) List<@LongRange(min = 0, max = 1_000) Long> values,
      @ForAll @DoubleRange(min = 0.1, max = 100) double percent) {
    long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
    long p = Stats.percentile(sorted, percent);
    long atMost = Arrays.stream(sorted).filter(v -> v <= p).count();
    long below = Arrays.stream(sorted).filter(v -> v < p).count();
    assertThat(atMost).isGreaterThanOrEqualTo((long) Math.ceil(percent / 100 * sorted.length));
    // The smallest such value: fewer than that share lie strictly below it.
    assertThat(below).isLessThan((long) Math.ceil(percent / 100 * sorted.length));
  }

  @Property
  void aRateTimesItsTimeGivesTheCountBack(
      @ForAll @LongRange(min = 0, max = 10_000_000) long count,
      @ForAll @LongRange(min = 1, max = 600_000) long millis) {
    double rate = Stats.perSecond(count, Duration.ofMillis(millis));
    assertThat(rate * millis / 1_000.0).isCloseTo(count, offset(0.05 * millis / 1_000.0 + 1e-6));
  }
}
