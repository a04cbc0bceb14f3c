package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.faults.FaultIds;
import io.reliabilitylab.record.Diagnostics;
import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.source.mysql.CdcPrerequisites;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.source.mysql.SourceNotReadyException;
import io.reliabilitylab.source.mysql.SourceRowReader;
import io.reliabilitylab.source.mysql.WorkloadWriter;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one scenario through the lifecycle of the lab: reset the source table, check the source's
 * CDC prerequisites, start the pipeline and await it running with a completed checkpoint, write the
 * seeded workload, await catch-up by measurement, reconcile with every check, and write the run
 * record. Faults are injected between the baseline and the final reconciliation by the fault suite,
 * which builds on this runner.
 *
 * <p>The runner never throws for a pipeline that misbehaves: a timeout becomes a failed {@code
 * catch-up} check with a diagnostic dump in the record, a source that is not ready becomes a usage
 * or environment error. One runner, with one source database, serves many scenarios.
 */
@API(status = EXPERIMENTAL)
public final class ScenarioRunner {

  private static final Logger LOG = LoggerFactory.getLogger(ScenarioRunner.class);

  /**
   * How long the second half of the workload takes to write while faults fire: long enough to span
   * a fault at the checkpoint after next and most of its recovery.
   */
  private static final Duration WRITES_SPAN_DURING_FAULTS = Duration.ofSeconds(4);

  private static final double MIN_EVENTS_PER_SECOND = 50;

  /**
   * How long a fault's writes wait for its injection to return or signal that it is armed before
   * they begin anyway (a plugin's injection that performs its fault without signalling).
   */
  private static final Duration ARMING_GRACE = Duration.ofSeconds(2);

  /** The catch-up deadline of a scenario expected to diverge (its lost events never arrive). */
  private static final Duration HAZARD_CATCH_UP = Duration.ofSeconds(20);

  private final SourceDatabase source;
  private final Path outDirectory;
  private final List<PipelineProvider> pipelines;
  private final List<ReconciliationCheck> checks;
  private final List<FaultInjector> faults;
  private final List<String> command;
  private final Clock clock;
  private final @Nullable String gitSha;

  /**
   * @param source the source database, started by the caller and reused across scenarios
   * @param outDirectory where run records and each run's own files go
   * @param pipelines the discovered pipeline providers
   * @param checks the checks to run after catch-up
   * @param faults the discovered fault injectors, chosen by name from the plan
   * @param command the command line that started the lab, for the record (secrets are masked)
   */
  public ScenarioRunner(
      SourceDatabase source,
      Path outDirectory,
      List<PipelineProvider> pipelines,
      List<ReconciliationCheck> checks,
      List<FaultInjector> faults,
      List<String> command,
      Clock clock) {
    this.source = source;
    this.outDirectory = outDirectory;
    this.pipelines = List.copyOf(pipelines);
    this.checks = List.copyOf(checks);
    this.faults = List.copyOf(faults);
    this.command = List.copyOf(command);
    this.clock = clock;
    this.gitSha = GitRevision.current();
  }

  /** Runs the scenario and writes its record into the output directory; returns the record. */
  public RunRecord run(ScenarioPlan plan) throws Exception {
    return run(plan, WorkloadGenerator.generate(WorkloadConfig.of(plan.events(), plan.seed())));
  }

  /**
   * Runs the scenario on a workload built elsewhere (an explorer's shrunk sequence) instead of the
   * one its seed generates; the record names the workload by its digest.
   */
  public RunRecord run(ScenarioPlan plan, Workload workload) throws Exception {
    Instant started = clock.instant();
    String runId = RunId.next(started);
    Path runDirectory = Files.createDirectories(outDirectory.resolve(runId));
    // A fault in the snapshot phase needs the first half preloaded: the pipeline then reads it as
    // a snapshot, not as the changes that made it.
    Expectation expected =
        plan.faultsInSnapshotPhase()
            ? Oracle.expectAfterSnapshot(
                workload, WorkloadPhases.baselineCount(workload.transactions().size()))
            : Oracle.expect(workload);
    RunRecord.Builder record =
        RunRecord.builder(runId, started)
            .command(command)
            .gitSha(gitSha)
            .environment(EnvironmentInfo.capture(source.kind(), false))
            .scenario(
                ScenarioInfo.of(plan.pipeline(), plan.scenario(), plan.seed(), plan.events(), 0)
                    .withVariant(plan.variant())
                    .withKnownHazard(plan.knownHazard())
                    .withWorkloadDigest(workload.digest()))
            .claimBoundary(claimBoundary(plan))
            .stackVersion("source", serverVersion())
            .configuration("source.kind", source.kind())
            .configuration("source.jdbc-url", source.jdbcUrl());
    try {
      runPipeline(plan, runDirectory, workload, expected, record);
    } catch (SourceNotReadyException e) {
      record.error(e.getMessage());
    } catch (TimeoutException e) {
      // The pipeline did not start streaming in time: a failure of the pipeline, not of the lab.
      String message = oneLine(e);
      record.check(CheckResult.failed("start", message, Evidence.NONE));
      Diagnostics.Builder dump = Diagnostics.builder(message, clock.instant());
      try {
        dump.sourcePosition(SourcePositions.current(source).orElse(null));
      } catch (Exception unavailable) {
        dump.detail("source_position", "unavailable: " + oneLine(unavailable));
      }
      record.diagnostics(dump.build());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      record.error("interrupted");
    } catch (Exception e) {
      LOG.debug("Scenario {} stopped", plan.scenario(), e);
      record.error(oneLine(e));
    }
    RunRecord done = record.finishedAt(clock.instant()).build();
    new RunRecordWriter(outDirectory).write(done);
    return done;
  }

  private void runPipeline(
      ScenarioPlan plan,
      Path runDirectory,
      Workload workload,
      Expectation expected,
      RunRecord.Builder record)
      throws Exception {
    OrdersTable table = OrdersTable.in(source);
    table.reset();
    CdcPrerequisites.verify(source);
    PipelineProvider provider = provider(plan.pipeline());
    Map<String, String> options = new LinkedHashMap<>(ScenarioOptions.of(runDirectory));
    options.putAll(plan.options());

    List<SourceTransaction> transactions = workload.transactions();
    boolean phased = !plan.faults().isEmpty() || !plan.exercises().isEmpty();
    int baselineCount =
        phased ? WorkloadPhases.baselineCount(transactions.size()) : transactions.size();
    List<SourceTransaction> rest = transactions.subList(baselineCount, transactions.size());
    // A fault placed in the snapshot phase needs rows to snapshot: the baseline is written before
    // the job starts, and the fault is armed the moment the job is submitted.
    boolean snapshotPhase = plan.faultsInSnapshotPhase();
    List<ArmedFault> armedAtSubmission = new ArrayList<>();
    JobSubmittedListener onSubmitted = JobSubmittedListener.NONE;
    if (snapshotPhase) {
      Instant preloadAt = clock.instant();
      WorkloadWriter.to(source).write(transactions.subList(0, baselineCount));
      record.timing("preload", Duration.between(preloadAt, clock.instant()));
      onSubmitted =
          submitted -> {
            for (int index = 0; index < plan.snapshotPhaseFaults(); index++) {
              armedAtSubmission.add(
                  arm(plan.faults().get(index), index + 1, submitted, plan, runDirectory));
            }
          };
    }

    try {
      startAndRun(
          plan,
          provider,
          options,
          onSubmitted,
          armedAtSubmission,
          snapshotPhase,
          phased,
          workload,
          expected,
          transactions,
          baselineCount,
          rest,
          runDirectory,
          record);
    } finally {
      // A fault armed at submission whose scenario stopped early is released, so that it cannot
      // fire in the next scenario of this JVM.
      for (ArmedFault leftover : armedAtSubmission) {
        try {
          leftover.handle().close();
        } catch (Exception e) {
          LOG.warn("Releasing fault {} failed: {}", leftover.spec().id(), oneLine(e));
        }
      }
    }
  }

  private void startAndRun(
      ScenarioPlan plan,
      PipelineProvider provider,
      Map<String, String> options,
      JobSubmittedListener onSubmitted,
      List<ArmedFault> armedAtSubmission,
      boolean snapshotPhase,
      boolean phased,
      Workload workload,
      Expectation expected,
      List<SourceTransaction> transactions,
      int baselineCount,
      List<SourceTransaction> rest,
      Path runDirectory,
      RunRecord.Builder record)
      throws Exception {
    Instant startAt = clock.instant();
    try (PipelineUnderTest pipeline =
        provider.start(
            new PipelineConfig(
                source.endpoint(OrdersTable.DEFAULT_NAME), options, runDirectory, onSubmitted))) {
      record
          .configuration(pipeline.effectiveConfiguration())
          .stackVersions(pipeline.stackVersions());
      record.configuration("delivery.semantics", pipeline.semantics().name());
      JobControl job = Capabilities.require(pipeline, JobControl.class, "to run a scenario");
      TableAccess tables = Capabilities.require(pipeline, TableAccess.class, "to run a scenario");
      try {
        job.awaitRunning(plan.startTimeout());
        job.awaitCompletedCheckpointAfter(clock.instant(), plan.startTimeout());
        record.timing("start", Duration.between(startAt, clock.instant()));
        if (snapshotPhase) {
          if (armedAtSubmission.size() != plan.snapshotPhaseFaults()) {
            record.error(
                "pipeline '"
                    + plan.pipeline()
                    + "' did not call the job-submitted listener, so the snapshot-phase faults"
                    + " were never armed");
            return;
          }
          List<List<SourceTransaction>> segments =
              WorkloadPhases.segments(rest, plan.faults().size());
          int armed = armedAtSubmission.size();
          completeFaults(
              plan,
              armedAtSubmission,
              segments.subList(0, armed).stream().flatMap(List::stream).toList(),
              record);
          injectFaults(plan, pipeline, armed, segments, runDirectory, record);
        } else {
          if (job.restartCount() != 0) {
            record.error("the job restarted " + job.restartCount() + " times before any fault");
            return;
          }
          Instant writeAt = clock.instant();
          WorkloadWriter.to(source).write(transactions.subList(0, baselineCount));
          record.timing("workload", Duration.between(writeAt, clock.instant()));
          if (phased) {
            // The baseline must reconcile clean first, or a later failure proves nothing.
            Expectation baseline = Oracle.expect(workload.prefix(baselineCount));
            CatchUp.Point baselinePoint =
                awaitCatchUp(plan, tables, baseline, record, job, "baseline");
            if (baselinePoint == null) {
              return;
            }
            BrokerEvidence broker = BrokerEvidence.of(pipeline);
            record.baselineLinkage(broker.observe("baseline"));
            reconcile(
                pipeline,
                tables,
                baselinePoint,
                baseline,
                broker.linkage(),
                List.of(),
                runDirectory,
                record,
                "baseline:");
            if (record.currentSummary().exitCode() != ExitCode.PASSED) {
              record.error("the baseline did not reconcile clean, so nothing was injected");
              return;
            }
            if (plan.faults().isEmpty()) {
              runExercises(plan, pipeline, workload, baselineCount, runDirectory, record);
            } else {
              injectFaults(
                  plan,
                  pipeline,
                  0,
                  WorkloadPhases.segments(rest, plan.faults().size()),
                  runDirectory,
                  record);
            }
          }
        }

        Instant catchUpAt = clock.instant();
        CatchUp.Point point = awaitCatchUp(plan, tables, expected, record, job, "catch-up");
        if (point == null && plan.knownHazard() != null) {
          // A hazard that loses data never catches up: judge what the sink holds, so the checks
          // name what is missing.
          point = CatchUp.latest(tables, clock);
        }
        if (point == null) {
          return;
        }
        record.timing("catch_up", Duration.between(catchUpAt, point.reachedAt()));
        // The workload is complete and the sink holds its last event: the sink reached the
        // source's position as it is now.
        record.sourcePosition(SourcePositions.current(source).orElse(null));

        Instant linkageAt = clock.instant();
        BrokerEvidence broker = BrokerEvidence.of(pipeline);
        record.finalLinkage(broker.observe("final"));
        Instant reconcileAt = clock.instant();
        if (broker.present()) {
          record.timing("linkage", Duration.between(linkageAt, reconcileAt));
        }
        record.repairLinkage(broker.latest("repair"));
        List<DlqRecord> deadLetters = broker.deadLetters();
        deadLetters.forEach(record::dlqRecord);
        record.quarantine(broker.quarantine(deadLetters));
        reconcile(
            pipeline,
            tables,
            point,
            expected,
            broker.linkage(),
            deadLetters,
            runDirectory,
            record,
            "");
        record.timing("reconcile", Duration.between(reconcileAt, clock.instant()));
        record.snapshots(allSnapshots(tables));
      } catch (TimeoutException e) {
        timedOut(record, "start", oneLine(e), plan.startTimeout(), job, tables);
      } catch (Exception e) {
        record.diagnostics(diagnostics(oneLine(e), job, tables));
        throw e;
      }
    }
  }

  private void reconcile(
      PipelineUnderTest pipeline,
      TableAccess tables,
      CatchUp.Point point,
      Expectation expected,
      List<LinkageRecord> linkage,
      List<DlqRecord> deadLetters,
      Path runDirectory,
      RunRecord.Builder record,
      String label)
      throws Exception {
    DeliverySemantics semantics = pipeline.semantics();
    Path spill = Files.createDirectories(runDirectory.resolve("spill"));
    RowSet sourceRows = SourceRowReader.orders(source);
    // The lab checks itself first: the source must hold what the oracle expects, or every later
    // verdict would compare against a wrong reference.
    CheckResult sourceMatchesOracle =
        new SnapshotDiffCheck()
            .check(
                CheckContext.builder(semantics)
                    .expectedCurrent(expected.current())
                    .actualCurrent(sourceRows)
                    .workDirectory(spill)
                    .build());
    if (sourceMatchesOracle.verdict() != Verdict.PASSED) {
      record.error(
          "the source table does not hold the workload the oracle expects ("
              + sourceMatchesOracle.summary()
              + "): another writer changed it, or the source is misconfigured");
      return;
    }
    CheckContext context =
        CheckContext.builder(semantics)
            .expectedCurrent(sourceRows)
            .actualCurrent(tables.current(point.current().snapshotId()))
            .expectedChangelog(expected.changelog())
            .actualChangelog(tables.changelog(point.changelog().snapshotId()))
            .checkpointId(point.checkpointId())
            .linkage(linkage)
            .dlqRecords(deadLetters)
            .workDirectory(spill)
            .build();
    List<String> notApplicable = new ArrayList<>();
    for (ReconciliationCheck check : checks) {
      if (!label.isEmpty() && !check.requiredCapabilities().isEmpty()) {
        // The baseline reconciles the tables; a broker's offsets and dead letters are judged once,
        // at the end, when the job has had time to commit them (a Kafka source commits offsets
        // only after the checkpoint that holds them, and late on an idle topic).
        continue;
      }
      if (!pipeline.capabilities().containsAll(check.requiredCapabilities())) {
        notApplicable.add(
            check.name()
                + " (needs "
                + check.requiredCapabilities().stream()
                    .map(Class::getSimpleName)
                    .sorted()
                    .collect(Collectors.joining(", "))
                + ")");
        continue;
      }
      CheckResult result = check.check(context);
      record.check(
          new CheckResult(
              label + result.check(), result.verdict(), result.summary(), result.evidence()));
      if (label.isEmpty() && check.name().equals("snapshot-diff")) {
        record.snapshotDiffCount(result.evidence().count("diff_count"));
      }
    }
    if (!notApplicable.isEmpty()) {
      // Not a verdict: the pipeline has no such part (a direct pipeline has no broker).
      record.configuration("checks.not-applicable", String.join("; ", notApplicable));
    }
  }

  /** Waits for catch-up to {@code expected}; on timeout records a failed check and returns null. */
  private CatchUp.@Nullable Point awaitCatchUp(
      ScenarioPlan plan,
      TableAccess tables,
      Expectation expected,
      RunRecord.Builder record,
      JobControl job,
      String phase)
      throws Exception {
    // A scenario expected to lose data waits less: the lost event never arrives.
    Duration deadline =
        plan.knownHazard() != null && plan.catchUpTimeout().compareTo(HAZARD_CATCH_UP) > 0
            ? HAZARD_CATCH_UP
            : plan.catchUpTimeout();
    try {
      return CatchUp.await(
          tables,
          expected.lastWrittenEventId().isPresent()
              ? expected.lastWrittenEventId().getAsLong()
              : null,
          expected.trailingDeletes(),
          deadline,
          clock);
    } catch (WaitTimedOutException e) {
      timedOut(record, phase, e.getMessage(), deadline, job, tables);
      return null;
    }
  }

  /** A fault armed (or performed) on the pipeline, not yet proven. */
  private record ArmedFault(
      FaultInjector injector, FaultSpec spec, FaultHandle handle, Instant injectedAt) {}

  /** Injects one planned fault: arms it at its position, or performs it now. */
  private ArmedFault arm(
      PlannedFault planned,
      int sequence,
      PipelineUnderTest pipeline,
      ScenarioPlan plan,
      Path runDirectory)
      throws Exception {
    return arm(planned, sequence, pipeline, plan, runDirectory, () -> {});
  }

  private ArmedFault arm(
      PlannedFault planned,
      int sequence,
      PipelineUnderTest pipeline,
      ScenarioPlan plan,
      Path runDirectory,
      Runnable onArmed)
      throws Exception {
    FaultInjector injector = fault(planned.fault());
    String id = FaultIds.of(sequence, injector.name());
    // Only a position counted from the injection asks the job for its checkpoints: a fault armed
    // the moment the job is submitted must not depend on a job that is still initializing.
    FaultPosition resolved =
        planned.countedFromInjection()
            ? planned.resolvedPosition(latestCheckpoint(pipeline))
            : planned.position();
    FaultPosition position = resolved != null ? resolved : defaultPosition(injector, pipeline);
    FaultSpec spec = new FaultSpec(id, injector.name(), position, planned.parameters());
    FaultContext context =
        new FaultContext(
            pipeline,
            spec,
            clock,
            plan.catchUpTimeout(),
            Files.createDirectories(runDirectory.resolve(id)),
            onArmed);
    Instant injectedAt = clock.instant();
    return new ArmedFault(injector, spec, injector.inject(context), injectedAt);
  }

  /** Proves that the fault fired, awaits its recovery, records both and releases the fault. */
  private void complete(ArmedFault armed, ScenarioPlan plan, RunRecord.Builder record)
      throws Exception {
    try (FaultHandle handle = armed.handle()) {
      FaultEvidence evidence = handle.awaitFired(plan.catchUpTimeout());
      RecoveryEvidence recovery = null;
      if (evidence.fired()) {
        try {
          recovery = handle.awaitRecovery(plan.catchUpTimeout());
        } catch (TimeoutException e) {
          record.check(
              CheckResult.failed(
                  "recovery:" + armed.spec().id(),
                  oneLine(e),
                  Evidence.builder().fact("fault", armed.spec().id()).build()));
        }
      }
      record.fault(FaultRecord.of(armed.spec(), evidence, recovery));
      record.timing(
          "fault:" + armed.injector().name(),
          Duration.between(armed.injectedAt(), clock.instant()));
    }
  }

  /**
   * Completes faults armed when the job was submitted (the snapshot phase) while the rest of the
   * workload is written.
   */
  private void completeFaults(
      ScenarioPlan plan,
      List<ArmedFault> armed,
      List<SourceTransaction> rest,
      RunRecord.Builder record)
      throws Exception {
    ExecutorService writer =
        Executors.newSingleThreadExecutor(r -> new Thread(r, "lab-workload-writer"));
    try {
      Future<?> writing = writer.submit(() -> WorkloadWriter.to(source).write(rest));
      while (!armed.isEmpty()) {
        complete(armed.remove(0), plan, record);
      }
      awaitWrites(writing, plan);
    } finally {
      stop(writer);
    }
  }

  /**
   * Injects the planned faults from {@code first} on, one after another, each while its own segment
   * of the workload is written; proves that it fired, awaits recovery and records both; a fault
   * that cannot be proven fails the run.
   */
  private void injectFaults(
      ScenarioPlan plan,
      PipelineUnderTest pipeline,
      int first,
      List<List<SourceTransaction>> segments,
      Path runDirectory,
      RunRecord.Builder record)
      throws Exception {
    ExecutorService writer =
        Executors.newSingleThreadExecutor(r -> new Thread(r, "lab-workload-writer"));
    try {
      for (int index = first; index < plan.faults().size(); index++) {
        PlannedFault planned = plan.faults().get(index);
        List<SourceTransaction> segment = segments.get(index);
        // The segment is written while the fault is injected, fires and heals: paced to span the
        // fault, since unpaced it would be written before the fault fires. The writes begin once
        // the fault is armed, so that a fault counting changes (after event k, the k-th record)
        // sees all of them: when its injection returns, or when an injection that performs the
        // fault (a broker down while changes arrive, a connector rewound by some events) signals
        // it, or after a grace for one that never signals.
        CountDownLatch armedOrGrace = new CountDownLatch(1);
        Future<?> writing =
            writer.submit(
                () -> {
                  armedOrGrace.await(ARMING_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                  pacedWriter(segment).write(segment);
                  return null;
                });
        ArmedFault armed;
        try {
          armed = arm(planned, index + 1, pipeline, plan, runDirectory, armedOrGrace::countDown);
        } finally {
          armedOrGrace.countDown();
        }
        complete(armed, plan, record);
        awaitWrites(writing, plan);
      }
    } finally {
      stop(writer);
    }
  }

  /**
   * Waits for a fault's writes; past the deadline the run stops with an error naming the writes
   * (not the job's start, which a timeout elsewhere means).
   */
  private static void awaitWrites(Future<?> writing, ScenarioPlan plan) throws Exception {
    try {
      writing.get(plan.catchUpTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "the workload writer did not finish its writes within "
              + plan.catchUpTimeout().toSeconds()
              + " s: the source database is not taking them",
          e);
    }
  }

  /**
   * Stops a writer and waits for it, so that a write still in flight cannot land in the next
   * scenario's freshly reset table.
   */
  private static void stop(ExecutorService writer) throws InterruptedException {
    writer.shutdownNow();
    if (!writer.awaitTermination(30, TimeUnit.SECONDS)) {
      LOG.warn("The workload writer did not stop within 30 s");
    }
  }

  /** A writer that spreads {@code transactions} over {@link #WRITES_SPAN_DURING_FAULTS}. */
  private WorkloadWriter pacedWriter(List<SourceTransaction> transactions) {
    long changes = transactions.stream().mapToLong(t -> t.changes().size()).sum();
    double perSecond =
        Math.max(MIN_EVENTS_PER_SECOND, changes * 1000.0 / WRITES_SPAN_DURING_FAULTS.toMillis());
    return WorkloadWriter.builder(source).eventsPerSecond(perSecond).build();
  }

  /** Runs the plan's exercises in turn; each writes the rest of the workload its own way. */
  private void runExercises(
      ScenarioPlan plan,
      PipelineUnderTest pipeline,
      Workload workload,
      int baselineCount,
      Path runDirectory,
      RunRecord.Builder record)
      throws Exception {
    for (String name : plan.exercises()) {
      Exercise exercise = Exercises.named(name);
      exercise.run(
          new ExerciseContext(
              pipeline,
              source,
              workload,
              baselineCount,
              plan.catchUpTimeout(),
              Files.createDirectories(runDirectory.resolve(name)),
              clock,
              record));
    }
  }

  /**
   * Where a fault fires when the plan does not say: shortly ahead of the running job, at a logical
   * position (a checkpoint id) that replays. A checkpoint suits every fault point (the
   * enumerator's, the storage's, the sink's commit); a variant that fires on the data path names
   * its position itself ({@code after-event:K}, {@code snapshot-phase:K}).
   */
  private static FaultPosition defaultPosition(FaultInjector injector, PipelineUnderTest pipeline) {
    Set<FaultPosition.Kind> kinds = injector.supportedPositions();
    long nextCheckpoint = latestCheckpoint(pipeline) + 2;
    if (kinds.contains(FaultPosition.Kind.AT_CHECKPOINT)) {
      return new FaultPosition.AtCheckpoint(nextCheckpoint);
    }
    if (kinds.contains(FaultPosition.Kind.AROUND_COMMIT)) {
      return new FaultPosition.AroundCommit(nextCheckpoint, false);
    }
    return new FaultPosition.Now();
  }

  /** The id of the job's latest checkpoint (any status), or 0 before the first. */
  private static long latestCheckpoint(PipelineUnderTest pipeline) {
    return pipeline
        .capability(JobControl.class)
        .map(job -> job.checkpoints().stream().mapToLong(c -> c.id()).max().orElse(0))
        .orElse(0L);
  }

  private FaultInjector fault(String name) {
    for (FaultInjector injector : faults) {
      if (injector.name().equals(name)) {
        return injector;
      }
    }
    throw new IllegalArgumentException(
        "Unknown fault '"
            + name
            + "'; available: "
            + faults.stream().map(FaultInjector::name).sorted().toList());
  }

  /**
   * A wait passed its deadline: the pipeline failed to do what it must in time, so the run fails
   * (exit code 1) with a failed lifecycle check and a diagnostic dump.
   */
  private void timedOut(
      RunRecord.Builder record,
      String phase,
      String message,
      Duration deadline,
      JobControl job,
      TableAccess tables) {
    record.check(
        CheckResult.failed(
            phase,
            message,
            Evidence.builder().fact("deadline_s", Long.toString(deadline.toSeconds())).build()));
    record.diagnostics(diagnostics(message, job, tables));
  }

  private Diagnostics diagnostics(String reason, JobControl job, TableAccess tables) {
    Diagnostics.Builder dump = Diagnostics.builder(reason, clock.instant());
    try {
      dump.jobState(job.state())
          .exceptionHistory(job.exceptionHistory())
          .lastCheckpoints(last(job.checkpoints(), 10))
          .detail("job_id", job.jobId())
          .detail("restart_count", job.restartCount());
    } catch (RuntimeException e) {
      dump.detail("job", "unavailable: " + oneLine(e));
    }
    try {
      dump.lastSnapshots(last(allSnapshots(tables), 10));
    } catch (Exception e) {
      dump.detail("snapshots", "unavailable: " + oneLine(e));
    }
    try {
      dump.sourcePosition(SourcePositions.current(source).orElse(null));
    } catch (Exception e) {
      dump.detail("source_position", "unavailable: " + oneLine(e));
    }
    return dump.build();
  }

  private static List<SnapshotInfo> allSnapshots(TableAccess tables) throws Exception {
    List<SnapshotInfo> all = new ArrayList<>(tables.snapshots(tables.currentTable()));
    all.addAll(tables.snapshots(tables.changelogTable()));
    return all;
  }

  private static <T> List<T> last(List<T> items, int count) {
    return items.subList(Math.max(0, items.size() - count), items.size());
  }

  private PipelineProvider provider(String name) {
    for (PipelineProvider provider : pipelines) {
      if (provider.name().equals(name)) {
        return provider;
      }
    }
    throw new IllegalArgumentException(
        "Unknown pipeline '"
            + name
            + "'; available: "
            + pipelines.stream().map(PipelineProvider::name).sorted().toList());
  }

  private @Nullable String serverVersion() {
    try {
      return source.serverVersion();
    } catch (Exception e) {
      return "unknown (" + oneLine(e) + ")";
    }
  }

  private static String claimBoundary(ScenarioPlan plan) {
    String delivered =
        "Shows that pipeline '"
            + plan.pipeline()
            + "' delivered a seeded workload of "
            + plan.events()
            + " changes (seed "
            + plan.seed()
            + ") from the source into both sink tables, reconciled at one checkpoint";
    if (plan.knownHazard() != null) {
      return delivered
          + ", or that the checks caught the known upstream hazard this scenario reproduces ("
          + plan.knownHazard()
          + "); it shows the hazard on this stack and these versions only.";
    }
    if (!plan.faults().isEmpty()) {
      return delivered
          + ", after the planned faults fired and the job recovered; it shows recovery from these"
          + " faults at these positions only, not from every timing.";
    }
    if (!plan.exercises().isEmpty()) {
      return delivered
          + ", with "
          + String.join(", ", plan.exercises())
          + " exercised while it streamed; it measures this machine and this workload only.";
    }
    return delivered + "; without injected faults it proves nothing about recovery.";
  }

  static String oneLine(Throwable e) {
    return Failures.oneLine(e);
  }
}
