package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.runner.LastEnvelopes;
import io.reliabilitylab.runner.RowSetDiff;
import io.reliabilitylab.runner.phase.Prepare;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.source.mysql.SourceRowReader;
import io.reliabilitylab.source.mysql.WorkloadWriter;
import io.reliabilitylab.source.mysql.WriteReport;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Oracle;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Measures a pipeline on one source database. Per transaction mode it writes one seeded workload
 * (one change per source transaction, grouped into commits by the mode) four times over:
 *
 * <ol>
 *   <li>to the reset table with no pipeline running: the source's own write rate;
 *   <li>as initial rows before the pipeline starts: how fast its initial snapshot becomes visible;
 *   <li>at full speed while the pipeline streams, then awaiting catch-up: the pipeline's
 *       throughput, and reconciliation speed at the caught-up snapshot;
 *   <li>a workload of its own on new keys at half that throughput, sized to the phase's duration:
 *       insert-to-visible latency per row, from the client's commit time to the commit of the first
 *       changelog snapshot holding it.
 * </ol>
 *
 * An optional sustain phase then offers a fixed rate for a duration and samples the lag. Every wait
 * has a deadline; the bench polls conditions and never sleeps for a fixed time.
 *
 * <pre>{@code
 * BenchReport report = Bench.builder(source, provider, BenchConfig.builder().build())
 *     .workDirectory(Path.of("lab-bench"))
 *     .progress(new PrintWriter(System.err, true))
 *     .build()
 *     .run();
 * System.out.println(report.toJson());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Bench {

  private static final Duration POLL = Duration.ofMillis(100);

  /** How often a long wait says where it is, so that a bench at scale is seen to move. */
  private static final Duration WAIT_LINE = Duration.ofSeconds(10);

  private static final Duration SAMPLE = Duration.ofSeconds(1);

  /** Keys of the latency phase start far above any key the mode's workload uses. */
  private static final long LATENCY_KEY_BASE = 500_000_000_000L;

  /** Keys of the sustain phase start far above any key the mode's and latency workloads use. */
  private static final long SUSTAIN_KEY_BASE = 1_000_000_000_000L;

  private final SourceDatabase source;
  private final PipelineProvider provider;
  private final BenchConfig config;
  private final Path workDirectory;
  private final PrintWriter progress;
  private final Clock clock;
  private @Nullable Instant waitDeadline;
  private Instant nextWaitLine = Instant.MIN;

  private final Map<String, String> configuration = new LinkedHashMap<>();
  private final Map<String, String> stackVersions = new LinkedHashMap<>();

  private Bench(Builder builder) {
    this.source = builder.source;
    this.provider = builder.provider;
    this.config = builder.config;
    this.workDirectory = builder.workDirectory;
    this.progress = builder.progress;
    this.clock = builder.clock;
  }

  /** A bench of {@code provider}'s pipeline on {@code source}, started by the caller. */
  public static Builder builder(
      SourceDatabase source, PipelineProvider provider, BenchConfig config) {
    return new Builder(source, provider, config);
  }

  /**
   * Runs every phase and returns the figures. Each mode's pipeline files (warehouse, checkpoints)
   * are deleted after the mode, as a long sustain phase makes them large.
   *
   * @throws TimeoutException when the pipeline did not get somewhere within the catch-up timeout
   */
  public BenchReport run() throws Exception {
    HeapUsage.resetPeaks();
    Instant started = clock.instant();
    EnvironmentInfo environment = EnvironmentInfo.capture(source.kind(), false);
    configuration.putAll(config.describe());
    configuration.put("source.kind", source.kind());
    stackVersions.put("source", serverVersion());
    OrdersTable table = Prepare.freshTable(source);
    Path benchDirectory = Files.createDirectories(workDirectory.resolve(RunId.next(started)));

    Map<String, BenchReport.Mode> modes = new LinkedHashMap<>();
    BenchReport.Sustain sustain = null;
    for (BenchMode mode : config.orderedModes()) {
      ModeRun run = new ModeRun(mode, table, benchDirectory.resolve(mode.label()));
      modes.put(mode.label(), run.measure());
      if (run.sustain != null) {
        sustain = run.sustain;
      }
    }
    deleteRecursively(benchDirectory);
    return new BenchReport(
        config.pipeline(),
        started,
        clock.instant(),
        config.seed(),
        modes,
        sustain,
        HeapUsage.peakBytes(),
        HeapUsage.maxBytes(),
        configuration,
        stackVersions,
        environment);
  }

  /** One mode's phases, on one pipeline run. */
  private final class ModeRun {
    private final BenchMode mode;
    private final OrdersTable table;
    private final Path directory;
    private final WorkloadConfig workloadConfig;
    // Each part is let go once written for the last time: at a million changes the generated
    // workload is most of the bench's heap, beside a pipeline in the same JVM.
    private @Nullable Workload initial;
    private @Nullable List<SourceTransaction> throughputPart;
    private @Nullable List<SourceTransaction> backlogPart;
    private final long lastWorkloadEventId;
    private BenchReport.@Nullable Sustain sustain;

    ModeRun(BenchMode mode, OrdersTable table, Path directory) {
      this.mode = mode;
      this.table = table;
      this.directory = directory;
      int events = config.events(mode);
      // One change per transaction: the mode alone decides how many share a commit.
      this.workloadConfig =
          WorkloadConfig.builder()
              .events(Math.toIntExact(2L * events))
              .seed(config.seed())
              .initialRows(config.initialRows())
              .maxChangesPerTransaction(1)
              .build();
      Workload workload = WorkloadGenerator.generate(workloadConfig);
      List<SourceTransaction> all = workload.transactions();
      int split = transactionsHolding(all, events);
      this.initial = new Workload(workloadConfig, workload.initialRows(), List.of());
      this.throughputPart = new ArrayList<>(all.subList(0, split));
      this.backlogPart = new ArrayList<>(all.subList(split, all.size()));
      this.lastWorkloadEventId = workload.lastEventId().orElse(0);
    }

    BenchReport.Mode measure() throws Exception {
      String label = "[" + mode.label() + "] ";
      int perCommit = config.transactionsPerCommit(mode);

      // 1. The source's own write rate, nothing capturing.
      List<SourceTransaction> throughputPart = Objects.requireNonNull(this.throughputPart);
      table.reset();
      writer(0).insertInitialRows(Objects.requireNonNull(initial));
      WriteReport alone = writer(0).write(throughputPart);
      double sourceRate = Stats.perSecond(alone.changes(), alone.elapsed());
      say(
          label + "source alone: %d events in %d ms = %.0f events/s",
          alone.changes(),
          alone.elapsed().toMillis(),
          sourceRate);
      double rawRate = SourceLimit.insertRate(source, table.name(), throughputPart, perCommit);
      say(
          label
              + "source raw limit: the same number of rows as multi-row inserts = %.0f rows/s;"
              + " writer %.2f x the limit",
          rawRate,
          Stats.ratio(sourceRate, rawRate));

      // 2. The initial snapshot.
      table.reset();
      int initialRows = writer(0).insertInitialRows(Objects.requireNonNull(initial));
      initial = null;
      Files.createDirectories(directory);
      Instant startAt = clock.instant();
      say(label + "starting pipeline %s with %d initial rows", config.pipeline(), initialRows);
      try (RunningPipeline running =
          RunningPipeline.start(
              provider,
              RunningPipeline.configuration(
                  source,
                  table.name(),
                  directory,
                  config.pipelineOptions(),
                  JobSubmittedListener.NONE),
              "to run the bench")) {
        PipelineUnderTest pipeline = running.pipeline();
        pipeline
            .effectiveConfiguration()
            .forEach((key, value) -> configuration.putIfAbsent("pipeline." + key, value));
        pipeline.stackVersions().forEach(stackVersions::putIfAbsent);
        JobControl job = running.job();
        TableAccess tables = running.tables();
        ChangelogWalk walk = new ChangelogWalk(tables);
        job.awaitRunning(config.catchUpTimeout());
        long snapshotMs = 0;
        long snapshotFromStartMs = 0;
        double snapshotRate = 0;
        if (initialRows > 0) {
          Instant[] firstTrigger = new Instant[1];
          Instant visible = awaitSnapshotRows(walk, initialRows, job, firstTrigger);
          Instant jobStart = jobStart(firstTrigger[0], startAt);
          Duration took = Duration.between(jobStart, visible);
          snapshotMs = took.toMillis();
          snapshotFromStartMs = Duration.between(startAt, visible).toMillis();
          snapshotRate = Stats.perSecond(initialRows, took);
          say(
              label
                  + "initial snapshot: %d rows visible %d ms after the job started = %.0f rows/s"
                  + " (%d ms after the pipeline's start call)",
              initialRows,
              snapshotMs,
              snapshotRate,
              snapshotFromStartMs);
        }

        // 3. Throughput while the pipeline streams.
        Instant writeAt = clock.instant();
        WriteReport captured = writer(0).write(throughputPart);
        Visible caughtUp =
            awaitVisible(tables, walk, Oracle.envelopes(throughputPart), (snapshot, event) -> {});
        this.throughputPart = null;
        throughputPart = null;
        Instant visible = caughtUp.at();
        double throughput = Stats.perSecond(captured.changes(), Duration.between(writeAt, visible));
        say(
            label
                + "pipeline: %d events visible in both tables %d ms after the first write ="
                + " %.0f events/s (source took them at %.0f events/s)",
            captured.changes(),
            Duration.between(writeAt, visible).toMillis(),
            throughput,
            captured.changesPerSecond());

        // 4. Reconciliation speed at the caught-up snapshot.
        BenchReport.Reconciliation reconciliation =
            reconcile(
                pipeline,
                tables.current(caughtUp.current().snapshotId()),
                () -> rawParquetRecords(caughtUp.current().snapshotId()));
        say(
            label
                + "reconciliation: %d rows, snapshot-diff %.0f rows/s (%s, %s), plain read %.0f"
                + " rows/s (source %d ms, sink %d ms), raw Parquet read of the sink's %d"
                + " data-file records %d ms",
            reconciliation.rows(),
            reconciliation.snapshotDiffRowsPerS(),
            reconciliation.verdict(),
            reconciliation.method(),
            reconciliation.plainReadRowsPerS(),
            reconciliation.plainReadSourceMs(),
            reconciliation.plainReadSinkMs(),
            reconciliation.rawParquetRecords(),
            reconciliation.rawParquetMs());

        // 5. The pipeline's own ceiling: a backlog written while the job was stopped.
        BenchReport.Backlog backlog = backlog(pipeline, job, tables, walk);

        // 6. Latency at half the throughput.
        double offered = Math.max(1, throughput / 2);
        List<SourceTransaction> latencyWrites =
            latencyWorkload(
                (long) Math.ceil(offered * config.latencyDuration().toMillis() / 1_000.0));
        say(label + "latency: offering %.0f events/s for %d events", offered, count(latencyWrites));
        LatencyResult latency = latency(tables, walk, offered, latencyWrites);
        say(
            label + "latency: p50 %d ms, p99 %d ms, max %d ms over %d inserted rows",
            latency.summary().p50(),
            latency.summary().p99(),
            latency.summary().max(),
            latency.summary().samples());

        if (config.sustain() != null && mode == config.sustainMode()) {
          sustain = sustain(tables, walk, lastWrittenEventId(latencyWrites, lastWorkloadEventId));
        }
        return new BenchReport.Mode(
            alone.changes(),
            perCommit,
            sourceRate,
            Stats.round(rawRate),
            Stats.ratio(sourceRate, rawRate),
            Stats.round(captured.changesPerSecond()),
            throughput,
            Stats.ratio(throughput, sourceRate),
            backlog,
            initialRows,
            snapshotMs,
            snapshotRate,
            snapshotFromStartMs,
            Stats.round(offered),
            Stats.round(latency.achievedRate()),
            latency.summary(),
            reconciliation);
      } finally {
        deleteRecursively(directory);
      }
    }

    /**
     * Waits until the changelog holds {@code rows} snapshot reads; returns when they were committed
     * and leaves in {@code firstTrigger} when the job's first checkpoint was triggered, looked at
     * while waiting, since Flink's checkpoint history keeps only the latest few.
     */
    private Instant awaitSnapshotRows(
        ChangelogWalk walk, int rows, JobControl job, Instant[] firstTrigger) throws Exception {
      Instant deadline = clock.instant().plus(config.catchUpTimeout());
      AtomicLong read = new AtomicLong();
      Instant[] visibleAt = new Instant[1];
      while (true) {
        if (firstTrigger[0] == null) {
          firstTrigger[0] = firstTrigger(job);
        }
        walk.walk(
            (snapshot, event) -> {
              if (event.op() == ChangeOp.READ && read.incrementAndGet() == rows) {
                visibleAt[0] = snapshot.committedAt();
              }
            });
        if (visibleAt[0] != null) {
          return visibleAt[0];
        }
        awaitNextPoll(
            deadline, "the changelog held " + read.get() + " of " + rows + " initial rows");
      }
    }

    private LatencyResult latency(
        TableAccess tables, ChangelogWalk walk, double rate, List<SourceTransaction> writes)
        throws Exception {
      Map<Long, Integer> insertedAt = new HashMap<>();
      for (int i = 0; i < writes.size(); i++) {
        for (SourceChange change : writes.get(i).changes()) {
          if (change instanceof SourceChange.Insert) {
            insertedAt.put(Objects.requireNonNull(change.writtenEventId()), i);
          }
        }
      }
      if (writes.isEmpty()) {
        return new LatencyResult(Stats.latency(new long[0]), 0);
      }
      WriteReport written = writer(rate).write(writes);
      List<Long> latencies = new ArrayList<>(insertedAt.size());
      awaitVisible(
          tables,
          walk,
          Oracle.envelopes(writes),
          (snapshot, event) -> {
            Integer index = event.op() == ChangeOp.CREATE ? insertedAt.get(event.eventId()) : null;
            if (index != null) {
              latencies.add(
                  Duration.between(written.commitTime(index), snapshot.committedAt()).toMillis());
            }
          });
      return new LatencyResult(
          Stats.latency(latencies.stream().mapToLong(Long::longValue).toArray()),
          written.changesPerSecond());
    }

    private BenchReport.Sustain sustain(TableAccess tables, ChangelogWalk walk, long lastEventId)
        throws Exception {
      Duration duration = Objects.requireNonNull(config.sustain());
      double rate = config.sustainRate();
      int perRound = (int) Math.max(1_000, Math.min(200_000, Math.round(rate)));
      ShiftedRounds rounds =
          new ShiftedRounds(
              WorkloadGenerator.generate(
                  WorkloadConfig.builder()
                      .events(perRound)
                      .seed(config.seed() + 1)
                      .maxChangesPerTransaction(1)
                      .firstEventId(lastEventId + 1)
                      .build()),
              SUSTAIN_KEY_BASE);
      say(
          "[%s] sustain: offering %.0f events/s for %d s",
          mode.label(), rate, duration.toSeconds());
      AtomicLong writtenMax = new AtomicLong(lastEventId);
      AtomicLong visibleMax = new AtomicLong(lastEventId);
      AtomicLong writtenEvents = new AtomicLong();
      WorkloadWriter writer =
          WorkloadWriter.builder(source)
              .table(table.name())
              .eventsPerSecond(rate)
              .transactionsPerCommit(config.transactionsPerCommit(mode))
              .listener(
                  (transaction, committedAt) -> {
                    writtenEvents.addAndGet(transaction.changes().size());
                    long written = lastWrittenEventId(List.of(transaction), 0);
                    writtenMax.accumulateAndGet(written, Math::max);
                  })
              .build();
      ExecutorService writing =
          Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-sustain-writer"));
      long startNanos = System.nanoTime();
      long endNanos = startNanos + duration.toNanos();
      Future<Long> writes =
          writing.submit(
              () -> {
                long round = 0;
                while (System.nanoTime() < endNanos) {
                  // Each round starts when the offered rate says so, so a slow round is caught up.
                  long due = startNanos + (long) (round * rounds.changesPerRound() * 1e9 / rate);
                  long wait = due - System.nanoTime();
                  if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                  }
                  writer.write(rounds.round(round));
                  round++;
                }
                return System.nanoTime();
              });
      List<Long> lags = new ArrayList<>();
      List<Long> sampledAtNanos = new ArrayList<>();
      ChangelogWalk.Visitor trackVisible =
          (snapshot, event) -> visibleMax.accumulateAndGet(event.eventId(), Math::max);
      long writesEndedNanos;
      try {
        long nextSample = startNanos + SAMPLE.toNanos();
        while (!writes.isDone()) {
          long wait = nextSample - System.nanoTime();
          if (wait > 0) {
            try {
              writes.get(wait, TimeUnit.NANOSECONDS);
            } catch (TimeoutException sampleDue) {
              // the writer is still writing: time for the next sample
            }
          }
          if (writes.isDone()) {
            break;
          }
          walk.walk(trackVisible);
          lags.add(Math.max(0, writtenMax.get() - visibleMax.get()));
          sampledAtNanos.add(System.nanoTime() - startNanos);
          nextSample += SAMPLE.toNanos();
          if (lags.size() % 10 == 0) {
            say(
                "[%s] sustain: %d s, lag %d events",
                mode.label(), lags.size(), lags.get(lags.size() - 1));
          }
        }
        writesEndedNanos = writes.get();
      } finally {
        writing.shutdownNow();
        writing.awaitTermination(config.catchUpTimeout().toSeconds(), TimeUnit.SECONDS);
      }
      long lastWritten = writtenMax.get();
      Instant drainStart = clock.instant();
      Instant deadline = drainStart.plus(config.catchUpTimeout());
      boolean drained = false;
      while (true) {
        walk.walk(trackVisible);
        if (visibleMax.get() >= lastWritten) {
          drained = true;
          break;
        }
        if (!clock.instant().isBefore(deadline)) {
          break;
        }
        Thread.sleep(POLL.toMillis());
      }
      long drainMs = Duration.between(drainStart, clock.instant()).toMillis();
      long finalLag = Math.max(0, lastWritten - visibleMax.get());
      long half = duration.toNanos() / 2;
      long firstHalf = 0;
      long secondHalf = 0;
      for (int i = 0; i < lags.size(); i++) {
        if (sampledAtNanos.get(i) < half) {
          firstHalf = Math.max(firstHalf, lags.get(i));
        } else {
          secondHalf = Math.max(secondHalf, lags.get(i));
        }
      }
      long allowance = Math.round(rate * config.checkpointInterval().toMillis() / 1_000.0);
      boolean bounded = drained && secondHalf <= Math.round(firstHalf * 1.5) + allowance;
      double achieved =
          Stats.perSecond(writtenEvents.get(), Duration.ofNanos(writesEndedNanos - startNanos));
      say(
          "[%s] sustain: %.0f events/s achieved, max lag %d, final lag %d after %d ms: %s",
          mode.label(),
          achieved,
          Math.max(firstHalf, secondHalf),
          finalLag,
          drainMs,
          bounded ? "bounded" : "NOT bounded");
      return new BenchReport.Sustain(
          mode.label(),
          duration.toMillis(),
          rate,
          achieved,
          writtenEvents.get(),
          Math.max(firstHalf, secondHalf),
          firstHalf,
          secondHalf,
          finalLag,
          drainMs,
          drained,
          bounded,
          lags);
    }

    private BenchReport.Reconciliation reconcile(
        PipelineUnderTest pipeline, RowSet sink, LongSupplier rawRead) throws Exception {
      RowSet sourceRows = SourceRowReader.orders(source);
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
      long rawRecords = rawRead.getAsLong();
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
     * Reads the sink snapshot's data files as stored (no deletes applied): the floor of a read of
     * its rows. -1 when the warehouse is not a local Hadoop catalog or a file is not Parquet.
     */
    private long rawParquetRecords(long snapshotId) {
      // The warehouse the bench's configuration gave the pipeline (RunningPipeline.configuration).
      Path path =
          Path.of(
              RunningPipeline.configuration(
                      source,
                      OrdersTable.DEFAULT_NAME,
                      directory,
                      config.pipelineOptions(),
                      JobSubmittedListener.NONE)
                  .options()
                  .get(LabOptions.WAREHOUSE_PATH));
      if (!Files.isDirectory(path)) {
        say("reconciliation: no raw Parquet read (no local warehouse at %s)", path);
        return -1;
      }
      try (IcebergWarehouse warehouse = IcebergWarehouse.open(path)) {
        Table current =
            warehouse.load(TableIdentifier.of(OrdersTables.NAMESPACE, OrdersTables.CURRENT));
        return IcebergTableReader.rawDataFileRecords(current, snapshotId, TableSchema.ORDERS)
            .orElse(-1);
      } catch (RuntimeException e) {
        say("reconciliation: no raw Parquet read (%s)", e.getMessage());
        return -1;
      }
    }

    /**
     * Stops the job with a savepoint, writes the backlog while nothing reads it, restores the job
     * and waits until both tables hold the backlog: the pipeline's rate without the writer in the
     * way (the broker pipeline's engine keeps publishing meanwhile; its topic holds the backlog).
     */
    private BenchReport.Backlog backlog(
        PipelineUnderTest pipeline, JobControl job, TableAccess tables, ChangelogWalk walk)
        throws Exception {
      String label = "[" + mode.label() + "] ";
      Optional<SavepointControl> savepoints = pipeline.capability(SavepointControl.class);
      List<SourceTransaction> backlogPart = Objects.requireNonNull(this.backlogPart);
      this.backlogPart = null;
      if (savepoints.isEmpty() || backlogPart.isEmpty()) {
        String reason =
            savepoints.isEmpty()
                ? "the pipeline cannot stop its job with a savepoint"
                : "no changes left for it";
        say(label + "backlog: skipped, " + reason);
        return BenchReport.Backlog.skipped(reason);
      }
      String savepoint = savepoints.get().stopWithSavepoint(config.catchUpTimeout());
      WriteReport written = writer(0).write(backlogPart);
      Instant restoreAt = clock.instant();
      savepoints.get().restore(savepoint, parallelism(pipeline));
      job.awaitRunning(config.catchUpTimeout());
      Instant runningAt = clock.instant();
      Visible visible =
          awaitVisible(tables, walk, Oracle.envelopes(backlogPart), (snapshot, event) -> {});
      Duration took = Duration.between(restoreAt, visible.at());
      double rate = Stats.perSecond(written.changes(), took);
      say(
          label
              + "backlog: %d events written with the job stopped, visible in both tables %d ms"
              + " after the restore call (running after %d ms) = %.0f events/s",
          written.changes(),
          took.toMillis(),
          Duration.between(restoreAt, runningAt).toMillis(),
          rate);
      return new BenchReport.Backlog(
          written.changes(),
          Duration.between(restoreAt, runningAt).toMillis(),
          took.toMillis(),
          Stats.round(rate),
          null);
    }

    /**
     * {@code changes} changes on keys of their own, with event ids after the mode's workload: the
     * latency phase's size is known only once the throughput is, and at scale a workload generated
     * ahead for the largest size would hold the heap for nothing.
     */
    private List<SourceTransaction> latencyWorkload(long changes) {
      Workload generated =
          WorkloadGenerator.generate(
              workloadConfig.toBuilder()
                  .events(Math.toIntExact(Math.max(1, changes)))
                  .seed(config.seed() + 2)
                  .initialRows(0)
                  .firstEventId(lastWorkloadEventId + 1)
                  .build());
      return new ShiftedRounds(generated, LATENCY_KEY_BASE).round(0);
    }

    private static int parallelism(PipelineUnderTest pipeline) {
      String value = pipeline.effectiveConfiguration().get("parallelism.default");
      try {
        return value == null ? 1 : Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        return 1;
      }
    }

    private WorkloadWriter writer(double eventsPerSecond) {
      return WorkloadWriter.builder(source)
          .table(table.name())
          .eventsPerSecond(eventsPerSecond)
          .transactionsPerCommit(config.transactionsPerCommit(mode))
          .build();
    }
  }

  private record LatencyResult(BenchReport.Latency summary, double achievedRate) {}

  /**
   * Where an event became visible in both tables: the first changelog snapshot that holds it, and
   * the first current-table snapshot committed by that checkpoint or a later one; the criterion of
   * the lab's {@link io.reliabilitylab.runner.CatchUp}.
   */
  private record Visible(SnapshotInfo changelog, SnapshotInfo current) {
    /** The later of the two commits. */
    Instant at() {
      return changelog.committedAt().isAfter(current.committedAt())
          ? changelog.committedAt()
          : current.committedAt();
    }
  }

  /**
   * Waits until every key's last envelope in {@code envelopes} (one phase's changes) is visible in
   * both tables — not only the last event written: a multi-row statement's rows reach the binlog in
   * key order, and a Kafka source reads its partitions independently — walking each changelog
   * snapshot once (so that {@code alsoVisit} sees every event of the walked snapshots) instead of
   * scanning the whole changelog at every poll, which would compete with the pipeline for the CPU
   * it measures.
   */
  private Visible awaitVisible(
      TableAccess tables,
      ChangelogWalk walk,
      List<ChangeEvent> envelopes,
      ChangelogWalk.Visitor alsoVisit)
      throws Exception {
    Instant deadline = clock.instant().plus(config.catchUpTimeout());
    LastEnvelopes pending = LastEnvelopes.of(envelopes);
    SnapshotInfo[] holding = new SnapshotInfo[1];
    ChangelogWalk.Visitor find =
        (snapshot, event) -> {
          alsoVisit.visit(snapshot, event);
          pending.seen(event);
          if (holding[0] == null && pending.complete()) {
            holding[0] = snapshot;
          }
        };
    while (true) {
      if (holding[0] == null) {
        SnapshotInfo newest = walk.walk(find);
        if (holding[0] == null && pending.complete() && newest != null) {
          holding[0] = newest;
        }
      }
      String progressSoFar =
          "the changelog lacks the last envelope of "
              + pending.missing()
              + " of the "
              + pending.keys()
              + " keys the phase changed, e.g. "
              + pending.sample();
      if (holding[0] != null) {
        long checkpoint = checkpointOf(holding[0]);
        for (SnapshotInfo snapshot : tables.snapshots(tables.currentTable())) {
          if (checkpointOf(snapshot) >= checkpoint) {
            return new Visible(holding[0], snapshot);
          }
        }
        progressSoFar =
            tables.changelogTable()
                + " holds the phase's changes since checkpoint "
                + checkpoint
                + ", but "
                + tables.currentTable()
                + " has no snapshot of that checkpoint or a later one";
      }
      awaitNextPoll(deadline, progressSoFar);
    }
  }

  /**
   * When the job started running, at the latest: Flink triggers its first checkpoint at most one
   * interval after the job runs, so this errs towards a longer snapshot time.
   */
  private Instant jobStart(@Nullable Instant firstTrigger, Instant startCalledAt) {
    if (firstTrigger == null) {
      return startCalledAt;
    }
    Instant estimate = firstTrigger.minus(config.checkpointInterval());
    return estimate.isBefore(startCalledAt) ? startCalledAt : estimate;
  }

  /**
   * When checkpoint 1 was triggered, or null while the job's checkpoint history does not hold it:
   * before the first checkpoint, or at scale once the history (the latest few) has moved past it;
   * then the job's start is taken as the pipeline's start call, which errs towards a longer
   * snapshot time.
   */
  private static @Nullable Instant firstTrigger(JobControl job) {
    for (CheckpointInfo checkpoint : job.checkpoints()) {
      if (checkpoint.id() == 1 && !checkpoint.savepoint()) {
        return checkpoint.triggeredAt();
      }
    }
    return null;
  }

  private static long checkpointOf(SnapshotInfo snapshot) {
    Long id = snapshot.committedCheckpointId();
    return id == null ? Long.MIN_VALUE : id;
  }

  /** How many leading transactions hold at least {@code changes} changes. */
  static int transactionsHolding(List<SourceTransaction> transactions, long changes) {
    long seen = 0;
    for (int i = 0; i < transactions.size(); i++) {
      if (seen >= changes) {
        return i;
      }
      seen += transactions.get(i).changes().size();
    }
    return transactions.size();
  }

  private static long lastWrittenEventId(List<SourceTransaction> transactions, long none) {
    long last = none;
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        Long written = change.writtenEventId();
        if (written != null) {
          last = Math.max(last, written);
        }
      }
    }
    return last;
  }

  private static long count(List<SourceTransaction> transactions) {
    long changes = 0;
    for (SourceTransaction transaction : transactions) {
      changes += transaction.changes().size();
    }
    return changes;
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

  private void awaitNextPoll(Instant deadline, String progressSoFar)
      throws TimeoutException, InterruptedException {
    Instant now = clock.instant();
    if (!deadline.equals(waitDeadline)) {
      waitDeadline = deadline;
      nextWaitLine = now.plus(WAIT_LINE);
    } else if (now.isAfter(nextWaitLine)) {
      Duration waited = Duration.between(deadline.minus(config.catchUpTimeout()), now);
      say("still waiting after %d s: %s", waited.toSeconds(), progressSoFar);
      nextWaitLine = now.plus(WAIT_LINE);
    }
    if (now.isAfter(deadline)) {
      throw new TimeoutException(
          "The pipeline did not get there within "
              + config.catchUpTimeout().toSeconds()
              + " s: "
              + progressSoFar
              + "; raise --catch-up-timeout or look at the pipeline's log");
    }
    Thread.sleep(POLL.toMillis());
  }

  private void say(String format, Object... arguments) {
    progress.println("bench: " + String.format(Locale.ROOT, format, arguments));
    progress.flush();
  }

  private String serverVersion() {
    try {
      return source.serverVersion();
    } catch (Exception e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the bench's files in " + directory, e);
    }
  }

  /**
   * Where the bench works and reports.
   *
   * <pre>{@code
   * Bench bench = Bench.builder(source, provider, config)
   *     .workDirectory(Path.of("lab-bench"))
   *     .progress(new PrintWriter(System.err, true))
   *     .build();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final SourceDatabase source;
    private final PipelineProvider provider;
    private final BenchConfig config;
    private Path workDirectory = Path.of("lab-bench");
    private PrintWriter progress = new PrintWriter(System.err, true);
    private Clock clock = Clock.systemUTC();

    private Builder(SourceDatabase source, PipelineProvider provider, BenchConfig config) {
      this.source = Objects.requireNonNull(source, "source");
      this.provider = Objects.requireNonNull(provider, "provider");
      this.config = Objects.requireNonNull(config, "config");
      if (!provider.name().equals(config.pipeline())) {
        throw new IllegalArgumentException(
            "The config benches pipeline '"
                + config.pipeline()
                + "' but the provider is '"
                + provider.name()
                + "'");
      }
    }

    /** Where each mode's pipeline keeps its files while it runs; default {@code lab-bench}. */
    public Builder workDirectory(Path directory) {
      this.workDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Where progress lines go; default standard error. */
    public Builder progress(PrintWriter progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /** The clock of the lab's waits; default the system's UTC clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Bench build() {
      return new Bench(this);
    }
  }
}
