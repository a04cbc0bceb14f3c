package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExerciseRecordTest {

  private static final Instant AT = SampleRecords.START;

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void theBuilderKeepsFiguresAndFactsInTheOrderTheyWereAdded() {
    ExerciseRecord pressure = SampleRecords.pressure();

    assertThat(pressure.figures().keySet())
        .containsExactly(
            "checkpoint_p50_ms_baseline",
            "checkpoint_max_ms_baseline",
            "checkpoint_p50_ms_pressure",
            "checkpoint_max_ms_pressure",
            "alignment_max_ms",
            "failed_checkpoints",
            "max_lag_events",
            "drain_ms");
    assertThat(pressure.figures()).containsEntry("checkpoint_max_ms_pressure", 19_022L);
    assertThat(pressure.facts().keySet()).containsExactly("throttle", "checkpoint_timeout");
    assertThat(pressure.series())
        .extracting(ExerciseRecord.SeriesPoint::series)
        .containsExactly(
            "lag_events", "checkpoint_ms", "lag_events", "checkpoint_ms", "lag_events");
    assertThat(pressure.finishedAt()).isEqualTo(pressure.startedAt().plusMillis(28_400));
  }

  @Test
  void aFigureSetTwiceKeepsItsPlaceAndItsLastValue() {
    ExerciseRecord record =
        ExerciseRecord.builder("checkpoint-pressure", AT)
            .figure("max_lag_events", 10)
            .figure("drain_ms", 5)
            .figure("max_lag_events", 40)
            .build(AT);

    assertThat(record.figures())
        .containsExactly(Map.entry("max_lag_events", 40L), Map.entry("drain_ms", 5L));
  }

  @Test
  void theJsonKeepsTheOrderOfFiguresAndFactsAndReadsBackInIt() throws IOException {
    RunRecord run = SampleRecords.full();
    String json = RunRecordWriter.toJson(run);
    JsonNode exercises = RunRecordJson.mapper().readTree(json).get("exercises");

    assertThat(exercises).hasSize(2);
    JsonNode pressure = exercises.get(0);
    assertThat(fieldNames(pressure))
        .containsExactly("name", "started_at", "finished_at", "figures", "facts", "series");
    assertThat(fieldNames(pressure.get("figures")))
        .containsExactlyElementsOf(SampleRecords.pressure().figures().keySet())
        .isNotEqualTo(SampleRecords.pressure().figures().keySet().stream().sorted().toList());
    assertThat(pressure.get("figures").get("checkpoint_max_ms_pressure").isIntegralNumber())
        .isTrue();
    assertThat(pressure.at("/series/2/at_ms").longValue()).isEqualTo(5_000);
    assertThat(pressure.at("/series/2/value").longValue()).isEqualTo(41_250);
    assertThat(fieldNames(exercises.get(1).get("facts")))
        .containsExactly("snapshot_before", "snapshot_after", "conflicts");

    ExerciseRecord readBack = RunRecordReader.fromJson(json).exercises().get(0);
    assertThat(readBack).isEqualTo(SampleRecords.pressure());
    assertThat(readBack.figures().keySet())
        .containsExactlyElementsOf(SampleRecords.pressure().figures().keySet());
  }

  @Test
  void exercisesComeRightAfterTheFaultsInTheJson() throws IOException {
    List<String> fields =
        fieldNames(RunRecordJson.mapper().readTree(RunRecordWriter.toJson(SampleRecords.full())));

    assertThat(fields.get(fields.indexOf("faults") + 1)).isEqualTo("exercises");
  }

  @Test
  void aRecordWithoutExercisesWritesAnEmptyList() throws IOException {
    JsonNode json =
        RunRecordJson.mapper().readTree(RunRecordWriter.toJson(SampleRecords.minimal()));

    assertThat(json.get("exercises").isArray()).isTrue();
    assertThat(json.get("exercises")).isEmpty();
  }

  @Test
  void factsHaveTheirSecretsMasked() {
    ExerciseRecord record =
        ExerciseRecord.builder("compaction", AT)
            .fact("catalog", "jdbc:mysql://lab:hunter2@db/iceberg")
            .fact("catalog_token", "abc123")
            .build(AT);

    assertThat(record.facts())
        .containsEntry("catalog", "jdbc:mysql://lab:***@db/iceberg")
        .containsEntry("catalog_token", "***");
  }

  @Test
  void theRecordIsImmutable() {
    Map<String, Long> figures = new LinkedHashMap<>();
    figures.put("records", 14L);
    ExerciseRecord record =
        new ExerciseRecord("compaction", AT, AT, figures, Map.of(), new ArrayList<>());
    figures.put("later", 1L);

    assertThat(record.figures()).containsOnlyKeys("records");
    assertThatThrownBy(() -> record.figures().put("x", 1L))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> record.facts().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> record.series().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest(name = "an exercise named ''{0}'' is refused")
  @ValueSource(strings = {"", "Checkpoint-Pressure", "-pressure", "checkpoint pressure", "lag/s"})
  void aBadNameIsRefusedWithTheRule(String name) {
    assertThatThrownBy(() -> ExerciseRecord.builder(name, AT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lower-case letters, digits, '_', '-' and ':'")
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void theNameMayUseDigitsColonsUnderscoresAndDashesAndKeysAnyNonBlankText() {
    ExerciseRecord record =
        ExerciseRecord.builder("0-compaction:after_stop", AT)
            .figure("p99:ms", 1)
            .fact("detail.attempt_1_ms", "412")
            .fact("Table Name", "orders_current")
            .point("lag_events:subtask-0", 0, 1)
            .build(AT);

    assertThat(record.name()).isEqualTo("0-compaction:after_stop");
    assertThat(record.facts()).containsKeys("detail.attempt_1_ms", "Table Name");
  }

  @Test
  void blankFigureFactAndSeriesNamesAreRefusedNamingTheExercise() {
    ExerciseRecord.Builder builder = ExerciseRecord.builder("compaction", AT);

    assertThatThrownBy(() -> builder.figure(" ", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("A figure of exercise 'compaction' needs a non-blank name");
    assertThatThrownBy(() -> builder.fact("", "1"))
        .hasMessageContaining("A fact of exercise 'compaction' needs a non-blank name");
    assertThatThrownBy(() -> builder.point("", 0, 1))
        .hasMessageContaining("A series needs a non-blank name");
    assertThatThrownBy(() -> builder.figure(null, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("A figure of exercise 'compaction' needs a name");
  }

  @Test
  void theConstructorChecksWhatTheBuilderChecks() {
    Map<String, Long> nullFigure = new HashMap<>();
    nullFigure.put("records", null);
    Map<String, String> blankFact = Map.of(" ", "1");

    assertThatThrownBy(
            () -> new ExerciseRecord("compaction", AT, AT, nullFigure, Map.of(), List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("Figure 'records' of exercise 'compaction' is null");
    assertThatThrownBy(
            () -> new ExerciseRecord("compaction", AT, AT, Map.of(), blankFact, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("A fact of exercise 'compaction'");
    assertThatThrownBy(
            () -> new ExerciseRecord("Compaction", AT, AT, Map.of(), Map.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Compaction'");
    assertThatThrownBy(() -> new ExerciseRecord("compaction", AT, AT, null, Map.of(), List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("figures");
  }

  @Test
  void anExerciseCannotFinishBeforeItStarted() {
    assertThatThrownBy(() -> ExerciseRecord.builder("compaction", AT).build(AT.minusMillis(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Exercise 'compaction' cannot finish")
        .hasMessageContaining("before it started");
  }

  @Test
  void aSampleCannotBeTakenBeforeTheExerciseStarted() {
    assertThatThrownBy(() -> ExerciseRecord.builder("pressure", AT).point("lag_events", -1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("series 'lag_events'")
        .hasMessageContaining("milliseconds since the exercise started, so not at -1");
  }

  @Test
  void exercisesDoNotChangeTheVerdict() {
    RunRecord withExercises = SampleRecords.full();

    assertThat(withExercises.exercises())
        .extracting(ExerciseRecord::name)
        .containsExactly("checkpoint-pressure", "compaction");
    assertThat(withExercises.summary().passed()).isTrue();
  }
}
