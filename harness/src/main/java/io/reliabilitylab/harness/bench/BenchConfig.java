package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What the bench measures and how big its workloads are.
 *
 * <pre>{@code
 * BenchConfig config = BenchConfig.builder()
 *     .pipeline("direct")
 *     .modes(Set.of(BenchMode.SINGLE, BenchMode.BATCHED))
 *     .batchedEvents(50_000)
 *     .singleEvents(10_000)
 *     .initialRows(20_000)
 *     .seed(42)
 *     .sustain(Duration.ofMinutes(5), 50_000)   // optional
 *     .build();
 * }</pre>
 *
 * @param pipeline the pipeline to bench, by provider name
 * @param modes the transaction modes to measure, each with its own pipeline run
 * @param batchedEvents changes the batched mode's throughput phase writes
 * @param singleEvents changes the single-row mode's throughput phase writes
 * @param initialRows rows in the table before each pipeline starts (its initial snapshot)
 * @param seed the workload seed
 * @param changesPerCommit changes per source commit in the batched mode
 * @param pipelineOptions options passed to the pipeline on top of the lab's own (checkpoint
 *     interval, parallelism, ...)
 * @param catchUpTimeout the deadline of every wait for the sink
 * @param sustain how long to offer {@code sustainRate}, or null for no sustain phase
 * @param sustainRate the events per second offered during the sustain phase
 * @param checkpointInterval the pipeline's checkpoint interval, for the lag bound of the sustain
 *     phase
 */
@API(status = EXPERIMENTAL)
public record BenchConfig(
    String pipeline,
    Set<BenchMode> modes,
    int batchedEvents,
    int singleEvents,
    Duration latencyDuration,
    int initialRows,
    long seed,
    int changesPerCommit,
    Map<String, String> pipelineOptions,
    Duration catchUpTimeout,
    @Nullable Duration sustain,
    double sustainRate,
    Duration checkpointInterval) {

  public BenchConfig {
    Objects.requireNonNull(pipeline, "pipeline");
    if (modes.isEmpty()) {
      throw new IllegalArgumentException("Choose at least one mode: single, batched or both");
    }
    modes = Set.copyOf(EnumSet.copyOf(modes));
    pipelineOptions = Map.copyOf(pipelineOptions);
    Objects.requireNonNull(catchUpTimeout, "catchUpTimeout");
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    if (latencyDuration.isNegative() || latencyDuration.isZero()) {
      throw new IllegalArgumentException(
          "The latency phase needs a positive duration, got " + latencyDuration);
    }
    positive("events", batchedEvents);
    positive("single-row events", singleEvents);
    positive("changes per commit", changesPerCommit);
    if (initialRows < 0) {
      throw new IllegalArgumentException("initial rows must be >= 0, got " + initialRows);
    }
    if (sustain != null && (sustain.isNegative() || sustain.isZero() || !(sustainRate > 0))) {
      throw new IllegalArgumentException(
          "A sustain phase needs a positive duration and a positive rate (events/s), got "
              + sustain
              + " at "
              + sustainRate);
    }
  }

  /** This configuration with other pipeline options (another sink catalog, say). */
  public BenchConfig withPipelineOptions(Map<String, String> options) {
    return new BenchConfig(
        pipeline,
        modes,
        batchedEvents,
        singleEvents,
        latencyDuration,
        initialRows,
        seed,
        changesPerCommit,
        options,
        catchUpTimeout,
        sustain,
        sustainRate,
        checkpointInterval);
  }

  /** A builder with the defaults: both modes, 50,000 / 10,000 events, 20,000 initial rows. */
  public static Builder builder() {
    return new Builder();
  }

  /** The modes in the order the bench runs them: single-row first, then batched. */
  public List<BenchMode> orderedModes() {
    return List.copyOf(EnumSet.copyOf(modes));
  }

  /** The changes the throughput phase of {@code mode} writes. */
  public int events(BenchMode mode) {
    return mode == BenchMode.SINGLE ? singleEvents : batchedEvents;
  }

  /** The source transactions per commit in {@code mode} (each transaction holds one change). */
  public int transactionsPerCommit(BenchMode mode) {
    return mode == BenchMode.SINGLE ? 1 : changesPerCommit;
  }

  /** The mode the sustain phase runs in: batched when measured, else single-row. */
  public BenchMode sustainMode() {
    return modes.contains(BenchMode.BATCHED) ? BenchMode.BATCHED : BenchMode.SINGLE;
  }

  /** The settings as the JSON reports them. */
  public Map<String, String> describe() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("bench.pipeline", pipeline);
    settings.put(
        "bench.modes", String.join(",", orderedModes().stream().map(BenchMode::label).toList()));
    settings.put("bench.batched-events", Integer.toString(batchedEvents));
    settings.put("bench.single-events", Integer.toString(singleEvents));
    settings.put("bench.latency-duration-ms", Long.toString(latencyDuration.toMillis()));
    settings.put("bench.initial-rows", Integer.toString(initialRows));
    settings.put("bench.seed", Long.toString(seed));
    settings.put("bench.changes-per-commit", Integer.toString(changesPerCommit));
    settings.put("bench.catch-up-timeout-ms", Long.toString(catchUpTimeout.toMillis()));
    if (sustain != null) {
      settings.put("bench.sustain-ms", Long.toString(sustain.toMillis()));
      settings.put("bench.sustain-rate-eps", Double.toString(sustainRate));
    }
    new TreeMap<>(pipelineOptions).forEach((k, v) -> settings.put("pipeline." + k, v));
    return settings;
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, got " + value);
    }
  }

  /** Builds a {@link BenchConfig}; every setting has a default. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private String pipeline = "direct";
    private Set<BenchMode> modes = EnumSet.allOf(BenchMode.class);
    private int batchedEvents = 50_000;
    private int singleEvents = 10_000;
    private Duration latencyDuration = Duration.ofSeconds(8);
    private int initialRows = 20_000;
    private long seed = 42;
    private int changesPerCommit = 500;
    private Map<String, String> pipelineOptions = Map.of();
    private Duration catchUpTimeout = Duration.ofSeconds(120);
    private @Nullable Duration sustain;
    private double sustainRate;
    private Duration checkpointInterval = Duration.ofSeconds(1);

    private Builder() {}

    /** The pipeline by provider name; default {@code direct}. */
    public Builder pipeline(String pipeline) {
      this.pipeline = pipeline;
      return this;
    }

    /** The modes to measure; default both. */
    public Builder modes(Set<BenchMode> modes) {
      this.modes = Set.copyOf(modes);
      return this;
    }

    /** Changes of the batched throughput phase; default 50,000. */
    public Builder batchedEvents(int events) {
      this.batchedEvents = events;
      return this;
    }

    /** Changes of the single-row throughput phase; default 10,000. */
    public Builder singleEvents(int events) {
      this.singleEvents = events;
      return this;
    }

    /** How long the latency phase offers its rate at most; default 8 s. */
    public Builder latencyDuration(Duration duration) {
      this.latencyDuration = duration;
      return this;
    }

    /** Rows present before the pipeline starts; default 20,000. */
    public Builder initialRows(int rows) {
      this.initialRows = rows;
      return this;
    }

    /** The workload seed; default 42. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Changes per commit in the batched mode; default 500. */
    public Builder changesPerCommit(int changes) {
      this.changesPerCommit = changes;
      return this;
    }

    /** Options for the pipeline, e.g. {@code checkpoint.interval-ms}; default none. */
    public Builder pipelineOptions(Map<String, String> options) {
      this.pipelineOptions = Map.copyOf(options);
      return this;
    }

    /** The deadline of every wait for the sink; default 120 s. */
    public Builder catchUpTimeout(Duration timeout) {
      this.catchUpTimeout = timeout;
      return this;
    }

    /** Offers {@code eventsPerSecond} for {@code duration} after the other phases. */
    public Builder sustain(Duration duration, double eventsPerSecond) {
      this.sustain = duration;
      this.sustainRate = eventsPerSecond;
      return this;
    }

    /** The pipeline's checkpoint interval (the lag bound allows for one); default 1 s. */
    public Builder checkpointInterval(Duration interval) {
      this.checkpointInterval = interval;
      return this;
    }

    public BenchConfig build() {
      return new BenchConfig(
          pipeline,
          modes,
          batchedEvents,
          singleEvents,
          latencyDuration,
          initialRows,
          seed,
          changesPerCommit,
          pipelineOptions,
          catchUpTimeout,
          sustain,
          sustainRate,
          checkpointInterval);
    }
  }
}
