package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reliability-lab bench --pipeline direct} with tiny sizes on embedded defaults: the JSON
 * has every figure, each sane. No timing thresholds: the targets are the bench's to report.
 */
class BenchCommandIT {

  @TempDir Path out;

  @Test
  void benchPrintsEveryFigureForBothModesAndASustainPhase() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "bench",
                "--pipeline",
                "direct",
                "--events",
                "2000",
                "--single-events",
                "400",
                "--initial-rows",
                "500",
                "--changes-per-commit",
                "50",
                "--seed",
                "7",
                "--sustain",
                "3s",
                "--rate",
                "500",
                "--out",
                out.toString());

    assertThat(exit).as("exit code; stderr:%n%s", stderr).isEqualTo(ExitCode.PASSED.code());
    JsonNode json = new ObjectMapper().readTree(stdout.toString());
    assertThat(json.get("pipeline").asText()).isEqualTo("direct");
    assertThat(json.get("seed").asLong()).isEqualTo(7);

    for (String mode : List.of("single", "batched")) {
      JsonNode figures = json.get("modes").get(mode);
      assertThat(figures).as(mode).isNotNull();
      assertThat(figures.get("events").asLong()).isEqualTo(mode.equals("single") ? 400 : 2000);
      assertThat(figures.get("changes_per_commit").asInt())
          .isEqualTo(mode.equals("single") ? 1 : 50);
      for (String rate :
          List.of(
              "source_write_rate_eps",
              "source_raw_insert_rate_eps",
              "writer_ratio_to_raw",
              "write_rate_with_capture_eps",
              "pipeline_throughput_eps",
              "ratio_to_source",
              "initial_snapshot_rows_per_s",
              "latency_offered_rate_eps",
              "latency_achieved_rate_eps")) {
        assertThat(figures.get(rate).asDouble()).as(mode + " " + rate).isPositive();
      }
      // the embedded MariaDB tells its purge lag
      assertThat(figures.get("source_purge_lag_growth").asLong()).as(mode).isNotNegative();
      assertThat(figures.get("initial_snapshot_rows").asLong()).isEqualTo(500);
      assertThat(figures.get("initial_snapshot_from_start_ms").asLong())
          .isGreaterThanOrEqualTo(figures.get("initial_snapshot_ms").asLong());
      JsonNode latency = figures.get("latency_ms");
      assertThat(latency.get("samples").asLong()).as(mode + " latency samples").isPositive();
      assertThat(latency.get("p50").asLong()).isGreaterThanOrEqualTo(0);
      assertThat(latency.get("p50").asLong()).isLessThanOrEqualTo(latency.get("p99").asLong());
      assertThat(latency.get("p99").asLong()).isLessThanOrEqualTo(latency.get("max").asLong());
      JsonNode reconciliation = figures.get("reconciliation");
      assertThat(reconciliation.get("verdict").asText()).isEqualTo("PASSED");
      assertThat(reconciliation.get("rows").asLong()).isGreaterThan(500);
      assertThat(reconciliation.get("snapshot_diff_rows_per_s").asDouble()).isPositive();
      assertThat(reconciliation.get("plain_read_rows_per_s").asDouble()).isPositive();
      assertThat(reconciliation.get("ratio").asDouble()).isPositive();
    }

    JsonNode sustain = json.get("sustain");
    assertThat(sustain.get("mode").asText()).isEqualTo("batched");
    assertThat(sustain.get("events").asLong()).isPositive();
    assertThat(sustain.get("achieved_rate_eps").asDouble()).isPositive();
    assertThat(sustain.get("drained").asBoolean()).isTrue();
    assertThat(sustain.get("final_lag_events").asLong()).isZero();
    assertThat(sustain.get("lag_samples")).isNotEmpty();

    JsonNode heap = json.get("heap");
    assertThat(heap.get("collections").asLong()).isPositive();
    assertThat(heap.get("peak_after_collection_bytes").asLong())
        .isPositive()
        .isLessThanOrEqualTo(heap.get("max_bytes").asLong())
        .isLessThanOrEqualTo(heap.get("pool_peaks_bytes").asLong());
    assertThat(heap.get("pause_ms").asLong()).isLessThanOrEqualTo(heap.get("elapsed_ms").asLong());
    assertThat(json.get("configuration").get("bench.seed").asText()).isEqualTo("7");
    assertThat(json.get("configuration").has("pipeline.checkpoint.interval-ms")).isTrue();
    assertThat(json.get("stack_versions").has("source")).isTrue();
    assertThat(json.get("environment").get("cpu_count").asInt()).isPositive();
    assertThat(json.get("environment").get("memory_bytes").asLong()).isPositive();

    // The same document is on disk, and the pipeline's working files are gone.
    try (Stream<Path> files = Files.list(out)) {
      List<Path> written = files.toList();
      assertThat(written)
          .singleElement()
          .satisfies(
              file -> {
                assertThat(file.getFileName().toString()).startsWith("bench-").endsWith(".json");
                assertThat(new ObjectMapper().readTree(file.toFile())).isEqualTo(json);
              });
    }
    assertThat(stderr.toString()).contains("bench: [batched] latency");
  }
}
