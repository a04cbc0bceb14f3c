package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.reliabilitylab.spi.secret.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A non-fault exercise of a scenario, measured: checkpoint pressure (checkpoint durations at
 * baseline and under backpressure, alignment, the commit lag and how it drained) or table
 * compaction (data and delete files before and after, the snapshots involved, commit conflicts).
 *
 * <p>Figures and facts keep the order they were added in, in the record and in its JSON, so that a
 * reader sees {@code ..._baseline} before {@code ..._pressure}. The exercise's name is lower-case
 * letters, digits, {@code _}, {@code -} and {@code :}, starting with a letter or digit (e.g. {@code
 * compaction:after-stop}); figures, facts and series have non-blank names, by convention in
 * snake_case. Facts are free text and have secrets masked.
 *
 * <pre>{@code
 * ExerciseRecord pressure = ExerciseRecord.builder("checkpoint-pressure", start)
 *     .figure("checkpoint_p50_ms_baseline", 55)
 *     .figure("checkpoint_max_ms_pressure", 19_022)
 *     .fact("throttle", "10 events/s per subtask")
 *     .point("lag_events", 1_000, 4_200)
 *     .build(clock.instant());
 * }</pre>
 *
 * @param name what was exercised, e.g. {@code checkpoint-pressure} or {@code compaction}
 * @param startedAt when the exercise started
 * @param finishedAt when it finished
 * @param figures measured numbers by name, e.g. {@code alignment_max_ms} or {@code
 *     data_files_before}, in the order they were added
 * @param facts observed text by name, e.g. snapshot ids or a commit conflict, secrets masked
 * @param series time series samples (e.g. {@code lag_events}, {@code checkpoint_ms}) in the order
 *     they were taken
 */
@API(status = STABLE)
public record ExerciseRecord(
    String name,
    Instant startedAt,
    Instant finishedAt,
    @JsonSerialize(using = RunRecordJson.InsertionOrderSerializer.class) Map<String, Long> figures,
    @JsonSerialize(using = RunRecordJson.InsertionOrderSerializer.class) Map<String, String> facts,
    List<SeriesPoint> series) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9:_-]*");

  public ExerciseRecord {
    requireName(name, "An exercise");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    if (finishedAt.isBefore(startedAt)) {
      throw new IllegalArgumentException(
          "Exercise '"
              + name
              + "' cannot finish ("
              + finishedAt
              + ") before it started ("
              + startedAt
              + ")");
    }
    Map<String, Long> orderedFigures = new LinkedHashMap<>();
    Objects.requireNonNull(figures, "figures")
        .forEach(
            (figure, value) -> {
              requireKey(figure, "A figure of exercise '" + name + "'");
              orderedFigures.put(
                  figure,
                  Objects.requireNonNull(
                      value, () -> "Figure '" + figure + "' of exercise '" + name + "' is null"));
            });
    figures = Collections.unmodifiableMap(orderedFigures);
    Objects.requireNonNull(facts, "facts")
        .forEach(
            (fact, text) -> {
              requireKey(fact, "A fact of exercise '" + name + "'");
              Objects.requireNonNull(
                  text, () -> "Fact '" + fact + "' of exercise '" + name + "' is null");
            });
    facts = Redactor.redactProperties(facts);
    series = List.copyOf(Objects.requireNonNull(series, "series"));
  }

  /** A builder for the exercise {@code name} that started at {@code startedAt}. */
  public static Builder builder(String name, Instant startedAt) {
    return new Builder(name, startedAt);
  }

  /**
   * One sample of a time series.
   *
   * @param series the series' name, e.g. {@code lag_events} or {@code checkpoint_ms}
   * @param atMs milliseconds since the exercise started
   * @param value the sample
   */
  @API(status = STABLE)
  public record SeriesPoint(String series, long atMs, long value) {

    public SeriesPoint {
      requireKey(series, "A series");
      if (atMs < 0) {
        throw new IllegalArgumentException(
            "A sample of series '"
                + series
                + "' is taken at milliseconds since the exercise started, so not at "
                + atMs);
      }
    }
  }

  /**
   * Fills an exercise record while the exercise runs. A figure or fact set twice keeps its first
   * position and its last value. Not thread-safe.
   */
  public static final class Builder {
    private final String name;
    private final Instant startedAt;
    private final Map<String, Long> figures = new LinkedHashMap<>();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<SeriesPoint> series = new ArrayList<>();

    private Builder(String name, Instant startedAt) {
      this.name = requireName(name, "An exercise");
      this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    }

    /** A measured number, e.g. {@code figure("failed_checkpoints", 0)}. */
    public Builder figure(String figure, long value) {
      figures.put(requireKey(figure, "A figure of exercise '" + name + "'"), value);
      return this;
    }

    /** An observed text, e.g. {@code fact("snapshot_before", "4318176490047650439")}. */
    public Builder fact(String fact, String text) {
      facts.put(
          requireKey(fact, "A fact of exercise '" + name + "'"),
          Objects.requireNonNull(text, "text"));
      return this;
    }

    /** One sample of {@code series}, taken {@code atMs} milliseconds after the start. */
    public Builder point(String seriesName, long atMs, long value) {
      series.add(new SeriesPoint(seriesName, atMs, value));
      return this;
    }

    /** The immutable record of the exercise, which finished at {@code finishedAt}. */
    public ExerciseRecord build(Instant finishedAt) {
      return new ExerciseRecord(name, startedAt, finishedAt, figures, facts, series);
    }
  }

  private static String requireName(String candidate, String what) {
    Objects.requireNonNull(candidate, () -> what + " needs a name");
    if (!NAME.matcher(candidate).matches()) {
      throw new IllegalArgumentException(
          what
              + " is named with lower-case letters, digits, '_', '-' and ':', starting with a"
              + " letter or digit (e.g. checkpoint_max_ms_pressure); got '"
              + candidate
              + "'");
    }
    return candidate;
  }

  private static String requireKey(String candidate, String what) {
    Objects.requireNonNull(candidate, () -> what + " needs a name");
    if (candidate.isBlank()) {
      throw new IllegalArgumentException(
          what + " needs a non-blank name, e.g. checkpoint_max_ms_pressure");
    }
    return candidate;
  }
}
