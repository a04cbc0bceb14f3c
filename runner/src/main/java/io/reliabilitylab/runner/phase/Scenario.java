package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.WorkloadPhases;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.SourceTable;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one scenario while its phases run: the plan, the workload and what the oracle
 * expects of it, the run's directory and the record being built, and what the phases set up — the
 * prepared table and provider, the running pipeline, the faults armed when the job was submitted,
 * and the point the sink caught up at.
 */
@API(status = INTERNAL)
public final class Scenario {

  private static final Logger LOG = LoggerFactory.getLogger(Scenario.class);

  private final Lab lab;
  private final ScenarioPlan plan;
  private final Workload workload;
  private final Expectation expected;
  private final Path directory;
  private final RunRecord.Builder record;
  private final int baselineCount;
  private final List<FaultInjection.Armed> armedAtSubmission = new CopyOnWriteArrayList<>();
  private JobSubmittedListener onJobSubmitted = JobSubmittedListener.NONE;
  private @Nullable SourceTable table;
  private @Nullable PipelineProvider provider;
  private @Nullable RunningPipeline running;
  private CatchUp.@Nullable Point caughtUp;

  private Scenario(
      Lab lab, ScenarioPlan plan, Workload workload, Path directory, RunRecord.Builder record) {
    this.lab = lab;
    this.plan = plan;
    this.workload = workload;
    this.directory = directory;
    this.record = record;
    int transactions = workload.transactions().size();
    this.baselineCount = phased() ? WorkloadPhases.baselineCount(transactions) : transactions;
    // A fault in the snapshot phase needs the first half preloaded: the pipeline then reads it as
    // a snapshot, not as the changes that made it.
    this.expected =
        plan.faultsInSnapshotPhase()
            ? Oracle.expectAfterSnapshot(workload, WorkloadPhases.baselineCount(transactions))
            : Oracle.expect(workload);
  }

  /** A new run of {@code plan}: its id, its directory, and a record with what is known upfront. */
  static Scenario begin(Lab lab, ScenarioPlan plan, Workload workload) throws IOException {
    Instant started = lab.clock().instant();
    String runId = RunId.next(started);
    Path directory = Files.createDirectories(lab.outDirectory().resolve(runId));
    CdcSource source = lab.source();
    RunRecord.Builder record =
        RunRecord.builder(runId, started)
            .command(lab.command())
            .gitSha(lab.gitSha())
            .environment(EnvironmentInfo.capture(source.kind(), false))
            .scenario(
                ScenarioInfo.of(plan.pipeline(), plan.scenario(), plan.seed(), plan.events(), 0)
                    .withVariant(plan.variant())
                    .withKnownHazard(plan.knownHazard())
                    .withWorkloadDigest(workload.digest()))
            .claimBoundary(ClaimBoundary.of(plan))
            .stackVersion("source", serverVersion(source))
            .configuration("source.kind", source.kind())
            .configuration("source.jdbc-url", source.jdbcUrl());
    return new Scenario(lab, plan, workload, directory, record);
  }

  private static String serverVersion(CdcSource source) {
    try {
      return source.serverVersion();
    } catch (Exception e) {
      return "unknown (" + Failures.oneLine(e) + ")";
    }
  }

  public Lab lab() {
    return lab;
  }

  public ScenarioPlan plan() {
    return plan;
  }

  public Workload workload() {
    return workload;
  }

  /** What the oracle expects of the whole workload (after the snapshot, in the snapshot phase). */
  public Expectation expected() {
    return expected;
  }

  /** The run's own directory, {@code <out>/<run id>}. */
  public Path directory() {
    return directory;
  }

  /** The record being built; phases add what they observed, never read their way back from it. */
  public RunRecord.Builder record() {
    return record;
  }

  public CdcSource source() {
    return lab.source();
  }

  public Clock clock() {
    return lab.clock();
  }

  /** Whether the scenario reconciles a baseline before its faults or exercises. */
  public boolean phased() {
    return !plan.faults().isEmpty() || !plan.exercises().isEmpty();
  }

  /**
   * Whether faults fire in the snapshot phase, so that the baseline is written before the start.
   */
  public boolean snapshotPhase() {
    return plan.faultsInSnapshotPhase();
  }

  /** How many leading transactions the baseline writes: all of them without faults or exercises. */
  public int baselineCount() {
    return baselineCount;
  }

  /** The transactions the baseline writes. */
  public List<SourceTransaction> baseline() {
    return workload.transactions().subList(0, baselineCount);
  }

  /** The transactions after the baseline, written while faults fire or exercises run. */
  public List<SourceTransaction> rest() {
    List<SourceTransaction> all = workload.transactions();
    return all.subList(baselineCount, all.size());
  }

  /** Adds the time since {@code since} to the phase's timing. */
  public void timing(String phase, Instant since) {
    record.timing(phase, Duration.between(since, clock().instant()));
  }

  void prepared(SourceTable preparedTable, PipelineProvider chosen) {
    this.table = preparedTable;
    this.provider = chosen;
  }

  public SourceTable table() {
    return Objects.requireNonNull(table, "the source table is not prepared yet");
  }

  public PipelineProvider provider() {
    return Objects.requireNonNull(provider, "the pipeline provider is not chosen yet");
  }

  /** Who the pipeline calls once its job is submitted; set by the preload for snapshot faults. */
  public JobSubmittedListener onJobSubmitted() {
    return onJobSubmitted;
  }

  void onJobSubmitted(JobSubmittedListener listener) {
    this.onJobSubmitted = Objects.requireNonNull(listener, "listener");
  }

  /** The faults armed when the job was submitted and not yet completed, oldest first. */
  List<FaultInjection.Armed> armedAtSubmission() {
    return armedAtSubmission;
  }

  void started(RunningPipeline pipeline) {
    this.running = pipeline;
  }

  /** The running pipeline, or null before it started (or when it could not start). */
  public @Nullable RunningPipeline runningOrNull() {
    return running;
  }

  /** The running pipeline. */
  public RunningPipeline running() {
    return Objects.requireNonNull(running, "the pipeline has not started");
  }

  void caughtUp(CatchUp.Point point) {
    this.caughtUp = point;
  }

  /** Where the sink caught up with the whole workload. */
  public CatchUp.Point caughtUp() {
    return Objects.requireNonNull(caughtUp, "the sink has not caught up yet");
  }

  /**
   * Stops the pipeline, then releases a fault armed at submission whose scenario stopped early, so
   * that it cannot fire in the next scenario of this JVM.
   */
  void release() throws Exception {
    try {
      if (running != null) {
        running.close();
      }
    } finally {
      for (FaultInjection.Armed leftover : armedAtSubmission) {
        try {
          leftover.handle().close();
        } catch (Exception e) {
          LOG.warn("Releasing fault {} failed: {}", leftover.spec().id(), Failures.oneLine(e));
        }
      }
      armedAtSubmission.clear();
    }
  }
}
