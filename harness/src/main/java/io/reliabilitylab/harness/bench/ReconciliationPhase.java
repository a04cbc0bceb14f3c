package io.reliabilitylab.harness.bench;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.runner.RowSetDiff;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The bench's reconciliation phase: the snapshot diff's speed, a plain read of both sides, and a
 * raw Parquet read of the sink's data files (no deletes applied), the floor of any read of its
 * rows.
 */
final class ReconciliationPhase {

  private final CdcSource source;
  private final BenchConfig config;
  private final Path directory;
  private final SinkWatch watch;

  /** A phase on the pipeline whose files (warehouse, spill) are under {@code directory}. */
  ReconciliationPhase(CdcSource source, BenchConfig config, Path directory, SinkWatch watch) {
    this.source = source;
    this.config = config;
    this.directory = directory;
    this.watch = watch;
  }

  /**
   * Reconciles the source with {@code sink} (the caught-up current table), then reads both plainly
   * and reads the sink snapshot's data files raw: the check's speed next to the physical limits
   * measured in the same run.
   */
  BenchReport.Reconciliation run(PipelineUnderTest pipeline, RowSet sink, long snapshotId)
      throws Exception {
    RowSet sourceRows = source.rows(TableSchema.ORDERS, TableSchema.ORDERS.name());
    // A first plain read warms both readers (classes, JIT, caches); the measured plain read comes
    // after the check, so neither of the two measured passes starts cold.
    long rows = drain(sourceRows);
    drain(sink);
    Path spill = Files.createDirectories(directory.resolve("spill"));
    long started = System.nanoTime();
    CheckResult diff = RowSetDiff.of(pipeline.semantics(), sourceRows, sink, spill);
    Duration checked = Duration.ofNanos(System.nanoTime() - started);
    started = System.nanoTime();
    drain(sourceRows);
    long sourceRead = System.nanoTime();
    drain(sink);
    long sinkRead = System.nanoTime();
    long rawRecords = rawParquetRecords(snapshotId);
    long rawReadAt = System.nanoTime();
    Duration plain = Duration.ofNanos(sinkRead - started);
    double diffRate = Stats.perSecond(rows, checked);
    double plainRate = Stats.perSecond(rows, plain);
    return new BenchReport.Reconciliation(
        rows,
        diff.verdict().name(),
        checked.toMillis(),
        diffRate,
        plain.toMillis(),
        plainRate,
        Stats.ratio(diffRate, plainRate),
        Duration.ofNanos(sourceRead - started).toMillis(),
        Duration.ofNanos(sinkRead - sourceRead).toMillis(),
        diff.evidence().facts().getOrDefault(SnapshotDiffCheck.METHOD, "unknown"),
        rawRecords,
        Duration.ofNanos(rawReadAt - sinkRead).toMillis(),
        rawRecords < 0 ? 0 : Stats.ratio(rawReadAt - sinkRead, sinkRead - sourceRead));
  }

  /**
   * Reads the sink snapshot's data files as stored (no deletes applied): the floor of a read of its
   * rows. -1 when the warehouse is not a local Hadoop catalog or a file is not Parquet.
   */
  private long rawParquetRecords(long snapshotId) {
    // The warehouse the bench's configuration gave the pipeline (RunningPipeline.configuration).
    Path path =
        Path.of(
            RunningPipeline.configuration(
                    source,
                    TableSchema.ORDERS.name(),
                    directory,
                    config.pipelineOptions(),
                    JobSubmittedListener.NONE)
                .options()
                .get(LabOptions.WAREHOUSE_PATH));
    if (!Files.isDirectory(path)) {
      watch.say("reconciliation: no raw Parquet read (no local warehouse at %s)", path);
      return -1;
    }
    try (IcebergWarehouse warehouse = IcebergWarehouse.open(path)) {
      Table current =
          warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
      return IcebergTableReader.rawDataFileRecords(current, snapshotId, TableSchema.ORDERS)
          .orElse(-1);
    } catch (RuntimeException e) {
      watch.say("reconciliation: no raw Parquet read (%s)", e.getMessage());
      return -1;
    }
  }

  private static long drain(RowSet rows) throws Exception {
    long count = 0;
    try (CloseableIterator<Row> iterator = rows.open()) {
      while (iterator.hasNext()) {
        iterator.next();
        count++;
      }
    }
    return count;
  }
}
