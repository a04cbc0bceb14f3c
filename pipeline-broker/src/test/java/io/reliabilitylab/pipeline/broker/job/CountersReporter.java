package io.reliabilitylab.pipeline.broker.job;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter that keeps every counter a local Flink job registers, by name, so that a test
 * can read an operator's counters after the job ends. Registered as a service; enabled per job by
 * {@link #enable(Configuration)}.
 */
public final class CountersReporter implements MetricReporter, MetricReporterFactory {

  private static final Map<String, List<Counter>> COUNTERS = new ConcurrentHashMap<>();

  static void enable(Configuration configuration) {
    configuration.setString(
        "metrics.reporter.counters.factory.class", CountersReporter.class.getName());
  }

  static void reset() {
    COUNTERS.clear();
  }

  /** The sum over every counter of that name (one per subtask and attempt). */
  static long sum(String name) {
    return COUNTERS.getOrDefault(name, List.of()).stream().mapToLong(Counter::getCount).sum();
  }

  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return this;
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
    if (metric instanceof Counter counter) {
      COUNTERS.computeIfAbsent(metricName, name -> new CopyOnWriteArrayList<>()).add(counter);
    }
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {}
}
