package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.reliabilitylab.record.EnvironmentInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchJsonTest {

  private static final Instant START = Instant.parse("2026-11-29T20:00:00Z");

  static BenchReport.Mode mode(long events, int perCommit) {
    return new BenchReport.Mode(
        events,
        perCommit,
        60_000.0,
        120_000.0,
        0.5,
        40,
        55_000.0,
        52_000.0,
        0.867,
        new BenchReport.Backlog(50_000, 900, 1_000, 50_000.0, null),
        20_000,
        4_000,
        5_000.0,
        9_000,
        26_000.0,
        25_900.0,
        new BenchReport.Latency(900, 1_800, 2_100, 33_000),
        new BenchReport.Reconciliation(
            70_000,
            "PASSED",
            140,
            500_000.0,
            100,
            700_000.0,
            0.714,
            40,
            60,
            "digest-and-bisect",
            90_000,
            50,
            0.833));
  }

  static BenchReport report(BenchReport.Sustain sustain) {
    return new BenchReport(
        "direct",
        START,
        START.plusSeconds(61),
        42,
        Map.of("batched", mode(50_000, 500)),
        sustain,
        new BenchReport.Heap(900_000_000L, 1_400_000_000L, 2_147_483_648L, 120, 0, 1_500, 61_000),
        Map.of("bench.seed", "42", "pipeline.checkpoint.interval-ms", "1000"),
        Map.of("flink", "1.20.3", "source", "10.11.5-MariaDB"),
        EnvironmentInfo.capture("embedded-mariadb", false));
  }

  @Test
  void everyFigureHasItsSnakeCaseName() throws Exception {
    JsonNode json = BenchJson.mapper().readTree(report(null).toJson());

    assertThat(fieldNames(json))
        .containsExactly(
            "pipeline",
            "started_at",
            "finished_at",
            "seed",
            "modes",
            "heap",
            "configuration",
            "stack_versions",
            "environment",
            "targets");
    assertThat(json.get("started_at").asText()).isEqualTo("2026-11-29T20:00:00Z");
    JsonNode batched = json.get("modes").get("batched");
    assertThat(fieldNames(batched))
        .containsExactly(
            "events",
            "changes_per_commit",
            "source_write_rate_eps",
            "source_raw_insert_rate_eps",
            "writer_ratio_to_raw",
            "source_purge_lag_growth",
            "write_rate_with_capture_eps",
            "pipeline_throughput_eps",
            "ratio_to_source",
            "backlog",
            "initial_snapshot_rows",
            "initial_snapshot_ms",
            "initial_snapshot_rows_per_s",
            "initial_snapshot_from_start_ms",
            "latency_offered_rate_eps",
            "latency_achieved_rate_eps",
            "latency_ms",
            "reconciliation");
    assertThat(fieldNames(batched.get("latency_ms")))
        .containsExactly("p50", "p99", "max", "samples");
    assertThat(batched.get("latency_ms").get("p99").asLong()).isEqualTo(1_800);
    assertThat(fieldNames(batched.get("reconciliation")))
        .containsExactly(
            "rows",
            "verdict",
            "snapshot_diff_ms",
            "snapshot_diff_rows_per_s",
            "plain_read_ms",
            "plain_read_rows_per_s",
            "ratio",
            "plain_read_source_ms",
            "plain_read_sink_ms",
            "method",
            "raw_parquet_records",
            "raw_parquet_ms",
            "sink_to_raw");
    assertThat(batched.get("ratio_to_source").asDouble()).isEqualTo(0.867);
    assertThat(json.get("environment").get("cpu_count").asInt()).isPositive();
    assertThat(json.get("environment").has("memory_bytes")).isTrue();
    // Map keys sorted, so two reports diff line by line.
    assertThat(fieldNames(json.get("stack_versions"))).containsExactly("flink", "source");
  }

  @Test
  void theSustainPhaseAppearsOnlyWhenItRan() throws Exception {
    assertThat(BenchJson.mapper().readTree(report(null).toJson()).has("sustain")).isFalse();

    BenchReport.Sustain sustain =
        new BenchReport.Sustain(
            "batched",
            300_000,
            50_000,
            49_990.5,
            15_000_000,
            120_000,
            110_000,
            120_000,
            0,
            2_300,
            true,
            true,
            List.of(40_000L, 60_000L, 0L));
    JsonNode json = BenchJson.mapper().readTree(report(sustain).toJson());

    JsonNode node = json.get("sustain");
    assertThat(fieldNames(node))
        .containsExactly(
            "mode",
            "duration_ms",
            "offered_rate_eps",
            "achieved_rate_eps",
            "events",
            "max_lag_events",
            "max_lag_first_half_events",
            "max_lag_second_half_events",
            "final_lag_events",
            "drain_ms",
            "drained",
            "bounded",
            "lag_samples");
    assertThat(node.get("bounded").asBoolean()).isTrue();
    assertThat(node.get("lag_samples")).hasSize(3);
  }

  @Test
  void theDocumentIsIndentedWithUnixLineEnds() {
    String json = report(null).toJson();
    assertThat(json).startsWith("{\n  \"pipeline\" : \"direct\"").doesNotContain("\r");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
