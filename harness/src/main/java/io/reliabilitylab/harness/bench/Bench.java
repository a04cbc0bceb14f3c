package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.runner.phase.Prepare;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.source.jdbc.SourceTable;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.WriteReport;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
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

  private final CdcSource source;
  private final PipelineProvider provider;
  private final BenchConfig config;
  private final Path workDirectory;
  private final Clock clock;
  private final SinkWatch watch;

  private final Map<String, String> configuration = new LinkedHashMap<>();
  private final Map<String, String> stackVersions = new LinkedHashMap<>();

  private Bench(Builder builder) {
    this.source = builder.source;
    this.provider = builder.provider;
    this.config = builder.config;
    this.workDirectory = builder.workDirectory;
    this.clock = builder.clock;
    this.watch = new SinkWatch(clock, config.catchUpTimeout(), builder.progress);
  }

  /** A bench of {@code provider}'s pipeline on {@code source}, started by the caller. */
  public static Builder builder(CdcSource source, PipelineProvider provider, BenchConfig config) {
    return new Builder(source, provider, config);
  }

  /**
   * Runs every phase and returns the figures. Each mode's pipeline files (warehouse, checkpoints)
   * are deleted after the mode, as a long sustain phase makes them large.
   *
   * @throws TimeoutException when the pipeline did not get somewhere within the catch-up timeout
   */
  public BenchReport run() throws Exception {
    try (HeapUsage heap = HeapUsage.watch()) {
      return run(heap);
    }
  }

  private BenchReport run(HeapUsage heap) throws Exception {
    Instant started = clock.instant();
    EnvironmentInfo environment = EnvironmentInfo.capture(source.kind(), false);
    configuration.putAll(config.describe());
    configuration.put("source.kind", source.kind());
    stackVersions.put("source", serverVersion());
    SourceTable table = Prepare.freshTable(source);
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
        heap.report(),
        configuration,
        stackVersions,
        environment);
  }

  /** One mode's phases, on one pipeline run. */
  private final class ModeRun {
    private final BenchMode mode;
    private final SourceTable table;
    private final Path directory;
    private final WorkloadConfig workloadConfig;
    // Each part is let go once written for the last time, and the backlog part is generated again
    // only when it is written: at a million changes the generated workload is most of the bench's
    // heap, beside a pipeline in the same JVM that takes its initial snapshot meanwhile.
    private @Nullable Workload initial;
    private @Nullable List<SourceTransaction> throughputPart;
    private final int backlogFirst;
    private final long lastWorkloadEventId;
    private BenchReport.@Nullable Sustain sustain;

    ModeRun(BenchMode mode, SourceTable table, Path directory) {
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
      int split = Transactions.holding(all, events);
      this.initial = new Workload(workloadConfig, workload.initialRows(), List.of());
      this.throughputPart = new ArrayList<>(all.subList(0, split));
      this.backlogFirst = split;
      this.lastWorkloadEventId = workload.lastEventId().orElse(0);
    }

    BenchReport.Mode measure() throws Exception {
      String label = "[" + mode.label() + "] ";
      int perCommit = config.transactionsPerCommit(mode);

      // 1. The source's own write rate, nothing capturing.
      List<SourceTransaction> throughputPart = Objects.requireNonNull(this.throughputPart);
      table.reset();
      writer(0).insertInitialRows(Objects.requireNonNull(initial));
      long lagBefore = SourceLimit.purgeLag(source);
      WriteReport alone = writer(0).write(throughputPart);
      double sourceRate = Stats.perSecond(alone.changes(), alone.elapsed());
      long lagAfter = SourceLimit.purgeLag(source);
      long purgeLag = lagBefore < 0 || lagAfter < 0 ? -1 : Math.max(0, lagAfter - lagBefore);
      watch.say(
          label + "source alone: %d events in %d ms = %.0f events/s; %s",
          alone.changes(),
          alone.elapsed().toMillis(),
          sourceRate,
          purgeLag < 0
              ? "the server does not tell its purge lag"
              : "InnoDB's history list grew by " + purgeLag + " unpurged transactions meanwhile");
      double rawRate = SourceLimit.insertRate(source, table.name(), throughputPart, perCommit);
      watch.say(
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
      watch.say(
          label + "starting pipeline %s with %d initial rows", config.pipeline(), initialRows);
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
          watch.say(
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
        SinkWatch.Visible caughtUp =
            watch.awaitVisible(
                tables, walk, Oracle.envelopes(throughputPart), (snapshot, event) -> {});
        this.throughputPart = null;
        throughputPart = null;
        Instant visible = caughtUp.at();
        double throughput = Stats.perSecond(captured.changes(), Duration.between(writeAt, visible));
        watch.say(
            label
                + "pipeline: %d events visible in both tables %d ms after the first write ="
                + " %.0f events/s (source took them at %.0f events/s)",
            captured.changes(),
            Duration.between(writeAt, visible).toMillis(),
            throughput,
            captured.changesPerSecond());

        // 4. Reconciliation speed at the caught-up snapshot.
        BenchReport.Reconciliation reconciliation =
            new ReconciliationPhase(source, config, directory, watch)
                .run(
                    pipeline,
                    tables.current(caughtUp.current().snapshotId()),
                    caughtUp.current().snapshotId());
        watch.say(
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
        List<SourceTransaction> backlogPart =
            WorkloadGenerator.transactionsFrom(workloadConfig, backlogFirst);
        BenchReport.Backlog backlog =
            new BacklogPhase(writer(0), config.catchUpTimeout(), watch, label)
                .run(pipeline, job, tables, walk, backlogPart);
        backlogPart = null;

        // 6. Latency at half the throughput.
        double offered = Math.max(1, throughput / 2);
        List<SourceTransaction> latencyWrites =
            LatencyPhase.workload(
                workloadConfig,
                lastWorkloadEventId + 1,
                (long) Math.ceil(offered * config.latencyDuration().toMillis() / 1_000.0));
        watch.say(
            label + "latency: offering %.0f events/s for %d events",
            offered,
            Transactions.changes(latencyWrites));
        LatencyPhase.Result latency =
            new LatencyPhase(writer(offered), watch).run(tables, walk, latencyWrites);
        watch.say(
            label + "latency: p50 %d ms, p99 %d ms, max %d ms over %d inserted rows",
            latency.summary().p50(),
            latency.summary().p99(),
            latency.summary().max(),
            latency.summary().samples());

        if (config.sustain() != null && mode == config.sustainMode()) {
          sustain =
              new SustainPhase(source, table.name(), config, mode, watch)
                  .run(
                      tables,
                      walk,
                      Transactions.lastWrittenEventId(latencyWrites, lastWorkloadEventId));
        }
        return new BenchReport.Mode(
            alone.changes(),
            perCommit,
            sourceRate,
            Stats.round(rawRate),
            Stats.ratio(sourceRate, rawRate),
            purgeLag,
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
      Instant deadline = watch.deadline();
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
        watch.awaitNextPoll(
            deadline, "the changelog held " + read.get() + " of " + rows + " initial rows");
      }
    }

    private ChangeWriter writer(double eventsPerSecond) {
      return source.writer(
          WriterSettings.of(table.name())
              .eventsPerSecond(eventsPerSecond)
              .transactionsPerCommit(config.transactionsPerCommit(mode)));
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
    private final CdcSource source;
    private final PipelineProvider provider;
    private final BenchConfig config;
    private Path workDirectory = Path.of("lab-bench");
    private PrintWriter progress = new PrintWriter(System.err, true);
    private Clock clock = Clock.systemUTC();

    private Builder(CdcSource source, PipelineProvider provider, BenchConfig config) {
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
