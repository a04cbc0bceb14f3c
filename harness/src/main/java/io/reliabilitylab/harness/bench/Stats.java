package io.reliabilitylab.harness.bench;

import java.time.Duration;
import java.util.Arrays;

/** The bench's arithmetic: rates, ratios and nearest-rank percentiles. */
final class Stats {

  private Stats() {}

  /**
   * The nearest-rank percentile of sorted values: the smallest value such that at least {@code
   * percent} % of the values are at most it.
   */
  static long percentile(long[] sorted, double percent) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("No values to take a percentile of");
    }
    if (!(percent > 0 && percent <= 100)) {
      throw new IllegalArgumentException("percent must be in (0, 100], got " + percent);
    }
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(1, Math.min(rank, sorted.length)) - 1];
  }

  /** {@code count} per second over {@code elapsed}; an elapsed time below 1 µs counts as 1 µs. */
  static double perSecond(long count, Duration elapsed) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    if (elapsed.isNegative()) {
      throw new IllegalArgumentException("elapsed must not be negative, got " + elapsed);
    }
    long micros = Math.max(1, elapsed.toNanos() / 1_000);
    return round(count * 1_000_000.0 / micros);
  }

  /** {@code numerator / denominator}, 0 when the denominator is 0, to three decimals. */
  static double ratio(double numerator, double denominator) {
    if (denominator == 0) {
      return 0;
    }
    return Math.round(numerator / denominator * 1_000.0) / 1_000.0;
  }

  /** One decimal: the figures are measurements, not exact values. */
  static double round(double value) {
    return Math.round(value * 10.0) / 10.0;
  }

  /** Summarises latencies in milliseconds; negative values (clock granularity) count as 0. */
  static BenchReport.Latency latency(long[] millis) {
    if (millis.length == 0) {
      return new BenchReport.Latency(0, 0, 0, 0);
    }
    long[] sorted = Arrays.stream(millis).map(m -> Math.max(0, m)).sorted().toArray();
    return new BenchReport.Latency(
        percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1], sorted.length);
  }
}
