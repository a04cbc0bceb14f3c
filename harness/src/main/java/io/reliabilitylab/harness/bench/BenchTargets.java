package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Each bench figure next to the goal set for it on a 2-core machine and the limit measured in the
 * same run, so that a reader sees at once what was met and what bounds the rest.
 */
@API(status = EXPERIMENTAL)
public final class BenchTargets {

  private static final double WRITER_EPS = 100_000;
  private static final double WRITER_TO_RAW = 0.7;
  private static final double LIVE_TO_WRITER = 0.9;
  private static final double SNAPSHOT_ROWS_PER_S = 60_000;
  private static final long P50_MS = 1_000;
  private static final long P99_MS = 2_000;
  private static final double RECONCILE_ROWS_PER_S = 1_000_000;
  private static final double RECONCILE_TO_PLAIN = 0.7;
  private static final double SINK_READ_TO_RAW = 0.7;
  private static final long HEAP_BYTES = 2L << 30;

  private BenchTargets() {}

  /**
   * One figure against its goal.
   *
   * @param mode the transaction mode, or {@code all} for the run as a whole
   * @param figure what was measured
   * @param measured the value
   * @param target the goal, e.g. {@code >= 100000}
   * @param limit the limit measured in the same run it is bounded by, or empty
   * @param met whether the value meets the goal
   */
  @API(status = EXPERIMENTAL)
  public record Target(
      String mode, String figure, double measured, String target, String limit, boolean met) {}

  /** The figures of {@code report} against their goals. */
  public static List<Target> of(BenchReport report) {
    List<Target> targets = new ArrayList<>();
    double backlogGoal = report.pipeline().equals("broker") ? 30_000 : 50_000;
    for (Map.Entry<String, BenchReport.Mode> entry : report.modes().entrySet()) {
      String mode = entry.getKey();
      BenchReport.Mode m = entry.getValue();
      String raw = "raw multi-row inserts " + rate(m.sourceRawInsertRateEps()) + " rows/s";
      if (mode.equals("batched")) {
        targets.add(atLeast(mode, "writer, changes/s", m.sourceWriteRateEps(), WRITER_EPS, raw));
        targets.add(
            atLeast(mode, "writer / raw insert limit", m.writerRatioToRaw(), WRITER_TO_RAW, raw));
      }
      String writer = "writer " + rate(m.sourceWriteRateEps()) + " changes/s";
      targets.add(
          atLeast(mode, "live pipeline / writer", m.ratioToSource(), LIVE_TO_WRITER, writer));
      if (m.backlog().skipped() == null) {
        targets.add(
            atLeast(
                mode,
                "backlog pipeline, changes/s",
                m.backlog().throughputEps(),
                backlogGoal,
                "live " + rate(m.pipelineThroughputEps()) + " changes/s"));
      }
      if (m.initialSnapshotRows() > 0) {
        targets.add(
            atLeast(
                mode,
                "initial snapshot of " + m.initialSnapshotRows() + " rows, rows/s",
                m.initialSnapshotRowsPerS(),
                SNAPSHOT_ROWS_PER_S,
                ""));
      }
      targets.add(atMost(mode, "latency p50, ms", m.latencyMs().p50(), P50_MS));
      targets.add(atMost(mode, "latency p99, ms", m.latencyMs().p99(), P99_MS));
      BenchReport.Reconciliation r = m.reconciliation();
      String plain = "plain read " + rate(r.plainReadRowsPerS()) + " rows/s";
      targets.add(
          atLeast(
              mode,
              "reconciliation of " + r.rows() + " rows, rows/s",
              r.snapshotDiffRowsPerS(),
              RECONCILE_ROWS_PER_S,
              plain));
      targets.add(
          atLeast(mode, "reconciliation / plain read", r.ratio(), RECONCILE_TO_PLAIN, plain));
      if (r.rawParquetRecords() >= 0) {
        targets.add(
            atLeast(
                mode,
                "plain sink read / raw Parquet read",
                r.sinkToRaw(),
                SINK_READ_TO_RAW,
                "raw read of " + r.rawParquetRecords() + " records " + r.rawParquetMs() + " ms"));
      }
    }
    // Under a 2 GiB -Xmx the figure cannot exceed the goal: a full collection is the sign that the
    // heap did not hold what the bench needed, so the goal is met only without one.
    BenchReport.Heap heap = report.heap();
    double peak = heap.peakAfterCollectionBytes();
    targets.add(
        new Target(
            "all",
            "peak heap after a collection, bytes",
            peak,
            "<= " + number(HEAP_BYTES) + ", no full GC",
            String.format(
                Locale.ROOT,
                "max heap %d MiB, %d full GCs, pauses %.1f %% of the run",
                heap.maxBytes() >> 20,
                heap.fullCollections(),
                heap.pauseShare() * 100),
            peak <= HEAP_BYTES && heap.fullCollections() == 0));
    return targets;
  }

  /** The targets as one table of aligned columns, a line each. */
  public static String table(List<Target> targets) {
    StringBuilder table = new StringBuilder();
    String format = "%-8s %-44s %14s %14s %-4s %s%n";
    table.append(
        String.format(Locale.ROOT, format, "mode", "figure", "measured", "target", "met", "limit"));
    for (Target target : targets) {
      table.append(
          String.format(
              Locale.ROOT,
              format,
              target.mode(),
              target.figure(),
              number(target.measured()),
              target.target(),
              target.met() ? "yes" : "NO",
              target.limit()));
    }
    return table.toString();
  }

  /**
   * Two benches' figures side by side, a line each, matched by mode and figure: {@code first}'s
   * then {@code second}'s and their ratio; a figure only one bench has shows a dash for the other.
   */
  public static String comparison(
      String firstLabel, List<Target> first, String secondLabel, List<Target> second) {
    Map<String, Target> seconds = new LinkedHashMap<>();
    second.forEach(target -> seconds.put(target.mode() + "\n" + target.figure(), target));
    StringBuilder table = new StringBuilder();
    String format = "%-8s %-44s %16s %16s %8s%n";
    table.append(
        String.format(
            Locale.ROOT,
            format,
            "mode",
            "figure",
            abbreviate(firstLabel),
            abbreviate(secondLabel),
            "ratio"));
    for (Target target : first) {
      Target other = seconds.remove(target.mode() + "\n" + target.figure());
      table.append(
          String.format(
              Locale.ROOT,
              format,
              target.mode(),
              target.figure(),
              number(target.measured()),
              other == null ? "-" : number(other.measured()),
              other == null || target.measured() == 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.2f", other.measured() / target.measured())));
    }
    for (Target other : seconds.values()) {
      table.append(
          String.format(
              Locale.ROOT,
              format,
              other.mode(),
              other.figure(),
              "-",
              number(other.measured()),
              "-"));
    }
    return table.toString();
  }

  private static String abbreviate(String label) {
    return label.length() <= 16 ? label : label.substring(0, 15) + "…";
  }

  private static Target atLeast(
      String mode, String figure, double measured, double goal, String limit) {
    return new Target(mode, figure, measured, ">= " + number(goal), limit, measured >= goal);
  }

  private static Target atMost(String mode, String figure, double measured, double goal) {
    return new Target(mode, figure, measured, "<= " + number(goal), "", measured <= goal);
  }

  private static String rate(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }

  private static String number(double value) {
    return Math.abs(value) >= 10
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.2f", value);
  }
}
