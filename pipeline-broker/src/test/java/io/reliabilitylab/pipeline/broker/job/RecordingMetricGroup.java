package io.reliabilitylab.pipeline.broker.job;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/** A metric group that keeps its counters by name, for tests that call a function directly. */
final class RecordingMetricGroup extends UnregisteredMetricsGroup {

  final Map<String, Counter> counters = new ConcurrentHashMap<>();

  @Override
  public Counter counter(String name) {
    return counter(name, new SimpleCounter());
  }

  @Override
  public <C extends Counter> C counter(String name, C counter) {
    counters.put(name, counter);
    return counter;
  }

  long count(String name) {
    Counter counter = counters.get(name);
    return counter == null ? -1 : counter.getCount();
  }
}
