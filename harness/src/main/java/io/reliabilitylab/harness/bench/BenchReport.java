package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.EnvironmentInfo;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What one bench measured; {@link #toJson()} gives the document the command prints. Rates are per
 * second, latencies in milliseconds, sizes in bytes.
 *
 * @param pipeline the pipeline benched
 * @param startedAt when the bench started
 * @param finishedAt when it finished
 * @param seed the workload seed
 * @param modes per transaction mode ({@code single}, {@code batched}), its figures
 * @param sustain the sustain phase, when one ran
 * @param heap the JVM's heap during the bench
 * @param configuration the bench's settings and the pipeline's effective configuration
 * @param stackVersions the versions of the source and the pipeline's components
 * @param environment the machine and JVM
 */
@API(status = EXPERIMENTAL)
public record BenchReport(
    String pipeline,
    Instant startedAt,
    Instant finishedAt,
    long seed,
    Map<String, Mode> modes,
    @Nullable Sustain sustain,
    Heap heap,
    Map<String, String> configuration,
    Map<String, String> stackVersions,
    EnvironmentInfo environment) {

  public BenchReport {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    modes = Collections.unmodifiableMap(new LinkedHashMap<>(modes));
    configuration = Collections.unmodifiableMap(new TreeMap<>(configuration));
    stackVersions = Collections.unmodifiableMap(new TreeMap<>(stackVersions));
    Objects.requireNonNull(heap, "heap");
    Objects.requireNonNull(environment, "environment");
  }

  /**
   * The JVM's heap during the bench, from the collector's notifications.
   *
   * @param peakAfterCollectionBytes the most heap in use right after a collection: what the bench
   *     and its pipeline held (with garbage a young collection leaves in the old generation)
   * @param poolPeaksBytes the sum of the heap pools' peaks, an upper bound that counts garbage
   * @param maxBytes the most heap the JVM may use
   * @param collections collections during the bench
   * @param fullCollections of them, full (major) collections
   * @param pauseMs the collections' time in total
   * @param elapsedMs the time measured over
   */
  public record Heap(
      long peakAfterCollectionBytes,
      long poolPeaksBytes,
      long maxBytes,
      long collections,
      long fullCollections,
      long pauseMs,
      long elapsedMs) {

    /** The collections' share of the time measured, 0 to 1. */
    public double pauseShare() {
      return elapsedMs <= 0 ? 0 : Math.min(1, (double) pauseMs / elapsedMs);
    }
  }

  /** The report as a pretty-printed JSON document with snake_case names. */
  public String toJson() {
    return BenchJson.write(this);
  }

  /**
   * The figures of one transaction mode.
   *
   * @param events changes written in the throughput phase
   * @param changesPerCommit changes per source commit
   * @param sourceWriteRateEps the source's own write rate for the same changes, no capture running
   * @param sourceRawInsertRateEps the source's raw limit in the same run: as many rows of the same
   *     shape as plain multi-row inserts with the same commits
   * @param writerRatioToRaw the writer's rate over that limit
   * @param sourcePurgeLagGrowth how much InnoDB's history list (committed transactions whose undo
   *     purge has not removed yet) grew while the writer alone wrote, -1 where the server does not
   *     tell; near the writer's commit count, purge did not keep up at all, the hot keys' version
   *     chains grow and the writer slows down as it goes (MariaDB before 10.11.6: MDEV-32050)
   * @param writeRateWithCaptureEps the source's write rate for them while the pipeline captured
   * @param pipelineThroughputEps events over first write to the last event visible in both tables
   * @param ratioToSource the throughput over the source's own write rate
   * @param backlog the pipeline's own ceiling: a backlog written while its job was stopped
   * @param initialSnapshotRows the rows present before the pipeline started
   * @param initialSnapshotMs from the job's start until the changelog held every initial row; the
   *     job's start is taken as its first checkpoint's trigger time less one checkpoint interval,
   *     no later than the job started running (Flink delays the first checkpoint by at most one
   *     interval)
   * @param initialSnapshotRowsPerS the rows over that time
   * @param initialSnapshotFromStartMs from the call that started the pipeline (cluster start
   *     included) until the changelog held every initial row
   * @param latencyOfferedRateEps the rate offered in the latency phase: half the throughput
   * @param latencyAchievedRateEps the rate the source took in the latency phase
   * @param latencyMs insert to visible in the changelog, per inserted row of the latency phase
   * @param reconciliation snapshot-diff against a plain read of the same rows
   */
  @API(status = EXPERIMENTAL)
  public record Mode(
      long events,
      int changesPerCommit,
      double sourceWriteRateEps,
      double sourceRawInsertRateEps,
      double writerRatioToRaw,
      long sourcePurgeLagGrowth,
      double writeRateWithCaptureEps,
      double pipelineThroughputEps,
      double ratioToSource,
      Backlog backlog,
      long initialSnapshotRows,
      long initialSnapshotMs,
      double initialSnapshotRowsPerS,
      long initialSnapshotFromStartMs,
      double latencyOfferedRateEps,
      double latencyAchievedRateEps,
      Latency latencyMs,
      Reconciliation reconciliation) {}

  /**
   * The pipeline's own ceiling, without the writer in the way: its job stopped with a savepoint,
   * {@code events} changes written while nothing read them, the job restored from the savepoint.
   *
   * @param events changes written while the job was stopped
   * @param restoreMs from the restore call until the job ran again
   * @param visibleMs from the restore call until both tables held every change
   * @param throughputEps the changes over {@code visibleMs}
   * @param skipped why it was not measured, or null
   */
  @API(status = EXPERIMENTAL)
  public record Backlog(
      long events, long restoreMs, long visibleMs, double throughputEps, @Nullable String skipped) {

    /** Not measured, for {@code reason}. */
    public static Backlog skipped(String reason) {
      return new Backlog(0, 0, 0, 0, reason);
    }
  }

  /**
   * Latency percentiles (nearest rank), in milliseconds.
   *
   * @param p50 the median
   * @param p99 the 99th percentile
   * @param max the largest
   * @param samples how many rows were measured
   */
  @API(status = EXPERIMENTAL)
  public record Latency(long p50, long p99, long max, long samples) {}

  /**
   * Reconciliation speed: the snapshot-diff check of the source against the sink's current table at
   * the caught-up snapshot, against just reading both, and the sink's read against a raw read of
   * its Parquet files.
   *
   * @param rows rows in the source table (the sink's table holds as many when they match)
   * @param verdict the snapshot-diff verdict, {@code PASSED} when the sink matched
   * @param snapshotDiffMs how long the check took
   * @param snapshotDiffRowsPerS rows over that time
   * @param plainReadMs how long reading both tables took
   * @param plainReadRowsPerS rows over that time
   * @param ratio the check's rate over the plain read's
   * @param plainReadSourceMs the plain read's time spent reading the source
   * @param plainReadSinkMs the plain read's time spent reading the sink's current table
   * @param method how the check compared: {@code digest-and-bisect} or the full diff and why
   * @param rawParquetRecords records in the sink snapshot's data files, deleted ones included
   * @param rawParquetMs how long reading those files as stored took (no deletes applied)
   * @param sinkToRaw the raw read's time over the plain read of the sink's table (1 = as fast)
   */
  @API(status = EXPERIMENTAL)
  public record Reconciliation(
      long rows,
      String verdict,
      long snapshotDiffMs,
      double snapshotDiffRowsPerS,
      long plainReadMs,
      double plainReadRowsPerS,
      double ratio,
      long plainReadSourceMs,
      long plainReadSinkMs,
      String method,
      long rawParquetRecords,
      long rawParquetMs,
      double sinkToRaw) {}

  /**
   * The sustain phase: a fixed rate offered for a duration, with the lag sampled once a second.
   *
   * @param mode the transaction mode it ran in
   * @param durationMs how long the rate was offered
   * @param offeredRateEps the offered rate
   * @param achievedRateEps the rate the source took (below the offered rate when the source could
   *     not keep up)
   * @param events changes written
   * @param maxLagEvents the highest lag sampled: the last written event id minus the highest one
   *     visible in the changelog
   * @param maxLagFirstHalfEvents the highest lag in the first half of the duration
   * @param maxLagSecondHalfEvents the highest lag in the second half
   * @param finalLagEvents the lag at the end of the drain
   * @param drainMs how long the lag took to reach 0 after the writes stopped (the deadline when it
   *     did not)
   * @param drained whether the lag reached 0 within the deadline
   * @param bounded whether it drained and the second half's lag stayed within 1.5 times the first
   *     half's plus one checkpoint interval of offered events
   * @param lagSamples the sampled lags, one a second
   */
  @API(status = EXPERIMENTAL)
  public record Sustain(
      String mode,
      long durationMs,
      double offeredRateEps,
      double achievedRateEps,
      long events,
      long maxLagEvents,
      long maxLagFirstHalfEvents,
      long maxLagSecondHalfEvents,
      long finalLagEvents,
      long drainMs,
      boolean drained,
      boolean bounded,
      List<Long> lagSamples) {

    public Sustain {
      lagSamples = List.copyOf(lagSamples);
    }
  }
}
