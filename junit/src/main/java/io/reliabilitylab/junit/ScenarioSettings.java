package io.reliabilitylab.junit;

import io.reliabilitylab.runner.ScenarioPlan;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a scenario is run with besides its faults: the extension holds the defaults of its tests,
 * and each scenario builder starts from a copy of them.
 */
record ScenarioSettings(
    String pipeline,
    long seed,
    int events,
    Map<String, String> options,
    Duration startTimeout,
    Duration catchUpTimeout) {

  /** The seed a scenario runs with unless the test names another. */
  static final long DEFAULT_SEED = 42;

  /** About half before the fault and half while it fires and recovers. */
  static final int DEFAULT_EVENTS = 1_000;

  ScenarioSettings {
    Objects.requireNonNull(pipeline, "pipeline");
    if (pipeline.isBlank()) {
      throw new IllegalArgumentException("Name the pipeline to run, e.g. forPipeline(\"direct\")");
    }
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0, got " + events);
    }
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    requirePositive(startTimeout, "startTimeout");
    requirePositive(catchUpTimeout, "catchUpTimeout");
  }

  /** The runner's own defaults (its deadlines), with the lab's default seed and size. */
  static ScenarioSettings defaults(String pipeline) {
    ScenarioPlan plan = ScenarioPlan.of(pipeline, "baseline", DEFAULT_SEED, DEFAULT_EVENTS);
    return new ScenarioSettings(
        pipeline,
        plan.seed(),
        plan.events(),
        plan.options(),
        plan.startTimeout(),
        plan.catchUpTimeout());
  }

  ScenarioSettings withPipeline(String newPipeline) {
    return new ScenarioSettings(
        newPipeline.strip(), seed, events, options, startTimeout, catchUpTimeout);
  }

  ScenarioSettings withSeed(long newSeed) {
    return new ScenarioSettings(pipeline, newSeed, events, options, startTimeout, catchUpTimeout);
  }

  ScenarioSettings withEvents(int newEvents) {
    return new ScenarioSettings(pipeline, seed, newEvents, options, startTimeout, catchUpTimeout);
  }

  ScenarioSettings withOption(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(options);
    copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return new ScenarioSettings(pipeline, seed, events, copy, startTimeout, catchUpTimeout);
  }

  ScenarioSettings withStartTimeout(Duration timeout) {
    return new ScenarioSettings(pipeline, seed, events, options, timeout, catchUpTimeout);
  }

  ScenarioSettings withCatchUpTimeout(Duration timeout) {
    return new ScenarioSettings(pipeline, seed, events, options, startTimeout, timeout);
  }

  /** A plan of the clean baseline with these settings, which faults are then added to. */
  ScenarioPlan baseline() {
    return new ScenarioPlan(
        pipeline, "baseline", seed, events, options, startTimeout, catchUpTimeout, List.of());
  }

  private static void requirePositive(Duration timeout, String name) {
    Objects.requireNonNull(timeout, name);
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + timeout);
    }
  }
}
