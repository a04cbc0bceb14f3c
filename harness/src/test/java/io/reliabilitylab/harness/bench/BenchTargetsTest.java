package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchTargetsTest {

  @Test
  void eachFigureStandsNextToItsGoalAndTheLimitMeasuredWithIt() {
    List<BenchTargets.Target> targets = BenchTargets.of(BenchJsonTest.report(null));

    assertThat(targets)
        .filteredOn(target -> target.figure().equals("writer, changes/s"))
        .singleElement()
        .satisfies(
            writer -> {
              assertThat(writer.measured()).isEqualTo(60_000.0);
              assertThat(writer.target()).isEqualTo(">= 100,000");
              assertThat(writer.met()).isFalse();
              assertThat(writer.limit()).contains("raw multi-row inserts 120,000 rows/s");
            });
    assertThat(targets)
        .filteredOn(target -> target.figure().startsWith("latency"))
        .extracting(BenchTargets.Target::met)
        .containsExactly(true, true);
    assertThat(targets)
        .filteredOn(target -> target.figure().equals("backlog pipeline, changes/s"))
        .singleElement()
        .satisfies(backlog -> assertThat(backlog.met()).isTrue());
    assertThat(targets)
        .filteredOn(target -> target.figure().equals("peak heap after a collection, bytes"))
        .singleElement()
        .satisfies(heap -> assertThat(heap.met()).isTrue());

    String table = BenchTargets.table(targets);
    assertThat(table.lines()).hasSize(targets.size() + 1);
    assertThat(table).contains("writer, changes/s").contains("NO").contains("yes");
  }

  @Test
  void twoBenchesStandSideBySideFigureByFigureWithTheirRatio() {
    List<BenchTargets.Target> first =
        List.of(
            new BenchTargets.Target("batched", "writer, changes/s", 60_000, "", "", true),
            new BenchTargets.Target("batched", "latency p50, ms", 400, "", "", true),
            new BenchTargets.Target(
                "batched", "plain sink read / raw Parquet read", 0.5, "", "", true));
    List<BenchTargets.Target> second =
        List.of(
            new BenchTargets.Target("batched", "latency p50, ms", 500, "", "", true),
            new BenchTargets.Target("batched", "writer, changes/s", 30_000, "", "", true),
            new BenchTargets.Target(
                "all", "peak heap after a collection, bytes", 1e9, "", "", true));

    List<String> lines =
        BenchTargets.comparison("hadoop", first, "embedded-rest", second).lines().toList();

    assertThat(lines).hasSize(5);
    assertThat(lines.get(0)).contains("hadoop", "embedded-rest", "ratio");
    assertThat(lines.get(1)).contains("writer, changes/s", "60,000", "30,000", "0.50");
    assertThat(lines.get(2)).contains("latency p50, ms", "400", "500", "1.25");
    assertThat(lines.get(3)).contains("raw Parquet").endsWith("-");
    assertThat(lines.get(4)).contains("peak heap", "1,000,000,000");
  }

  @Test
  void aBacklogNotMeasuredHasNoTargetRow() {
    BenchReport report = BenchJsonTest.report(null);
    BenchReport.Mode mode = report.modes().get("batched");
    BenchReport.Mode skipped =
        new BenchReport.Mode(
            mode.events(),
            mode.changesPerCommit(),
            mode.sourceWriteRateEps(),
            mode.sourceRawInsertRateEps(),
            mode.writerRatioToRaw(),
            mode.sourcePurgeLagGrowth(),
            mode.writeRateWithCaptureEps(),
            mode.pipelineThroughputEps(),
            mode.ratioToSource(),
            BenchReport.Backlog.skipped("the pipeline cannot stop its job with a savepoint"),
            mode.initialSnapshotRows(),
            mode.initialSnapshotMs(),
            mode.initialSnapshotRowsPerS(),
            mode.initialSnapshotFromStartMs(),
            mode.latencyOfferedRateEps(),
            mode.latencyAchievedRateEps(),
            mode.latencyMs(),
            mode.reconciliation());

    assertThat(BenchTargets.of(withMode(report, skipped)))
        .extracting(BenchTargets.Target::figure)
        .doesNotContain("backlog pipeline, changes/s");
  }

  @Test
  void aHeapThatNeededAFullCollectionMissesTheHeapGoalThoughItFitTheMaximum() {
    BenchReport report = BenchJsonTest.report(null);
    BenchReport full =
        new BenchReport(
            report.pipeline(),
            report.startedAt(),
            report.finishedAt(),
            report.seed(),
            report.modes(),
            report.sustain(),
            new BenchReport.Heap(2_140_000_000L, 3_500_000_000L, 2L << 30, 300, 2, 20_000, 800_000),
            report.configuration(),
            report.stackVersions(),
            report.environment());

    assertThat(BenchTargets.of(full))
        .filteredOn(target -> target.figure().equals("peak heap after a collection, bytes"))
        .singleElement()
        .satisfies(
            heap -> {
              assertThat(heap.met()).isFalse();
              assertThat(heap.limit()).contains("2 full GCs").contains("pauses 2.5 %");
            });
  }

  @Test
  void theJsonCarriesTheTargets() throws Exception {
    JsonNode json = BenchJson.mapper().readTree(BenchJsonTest.report(null).toJson());

    JsonNode first = json.get("targets").get(0);
    assertThat(first.get("figure").asText()).isEqualTo("writer, changes/s");
    assertThat(first.get("met").asBoolean()).isFalse();
    assertThat(json.get("modes").get("batched").get("backlog").get("throughput_eps").asDouble())
        .isEqualTo(50_000.0);
  }

  private static BenchReport withMode(BenchReport report, BenchReport.Mode mode) {
    return new BenchReport(
        report.pipeline(),
        report.startedAt(),
        report.finishedAt(),
        report.seed(),
        java.util.Map.of("batched", mode),
        report.sustain(),
        report.heap(),
        report.configuration(),
        report.stackVersions(),
        report.environment());
  }
}
