package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.phase.Lab;
import io.reliabilitylab.runner.phase.Lifecycle;
import io.reliabilitylab.runner.phase.PhaseListener;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Runs one scenario through the lifecycle of the lab: reset the source table, check the source's
 * CDC prerequisites, start the pipeline and await it running with a completed checkpoint, write the
 * seeded workload, await catch-up by measurement, reconcile with every check, and write the run
 * record. Faults and exercises run between a clean baseline and the final reconciliation. The steps
 * are the phases of {@link io.reliabilitylab.runner.phase.Lifecycle}; a suite of scenarios is
 * {@link io.reliabilitylab.runner.suite.Suite}.
 *
 * <p>The runner never throws for a pipeline that misbehaves: a timeout becomes a failed {@code
 * catch-up} check with a diagnostic dump in the record, a source that is not ready becomes a usage
 * or environment error. One runner, with one source database, serves many scenarios.
 *
 * <pre>{@code
 * ScenarioRunner runner = ScenarioRunner.builder(source)
 *     .outDirectory(Path.of("lab-runs"))
 *     .pipelines(Discovered.pipelines(loader).all())
 *     .checks(Discovered.checks(loader).all())
 *     .faults(Discovered.faults(loader).all())
 *     .build();
 * RunRecord record = runner.run(ScenarioPlan.of("direct", "baseline", 42, 2_000));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ScenarioRunner {

  private final Lifecycle lifecycle;

  /**
   * @param source the source database, started by the caller and reused across scenarios
   * @param outDirectory where run records and each run's own files go
   * @param pipelines the discovered pipeline providers
   * @param checks the checks to run after catch-up
   * @param faults the discovered fault injectors, chosen by name from the plan
   * @param command the command line that started the lab, for the record (secrets are masked)
   */
  public ScenarioRunner(
      CdcSource source,
      Path outDirectory,
      List<PipelineProvider> pipelines,
      List<ReconciliationCheck> checks,
      List<FaultInjector> faults,
      List<String> command,
      Clock clock) {
    this(
        builder(source)
            .outDirectory(outDirectory)
            .pipelines(pipelines)
            .checks(checks)
            .faults(faults)
            .command(command)
            .clock(clock));
  }

  private ScenarioRunner(Builder builder) {
    this.lifecycle =
        new Lifecycle(
            new Lab(
                builder.source,
                builder.outDirectory,
                builder.pipelines,
                builder.checks,
                builder.faults,
                builder.command,
                builder.clock,
                GitRevision.current()),
            builder.phaseListener);
  }

  /** A builder of a runner on {@code source}, started by the caller. */
  public static Builder builder(CdcSource source) {
    return new Builder(source);
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
    return lifecycle.run(plan, workload);
  }

  /**
   * What a runner works with, each part defaulted: records in {@code lab-runs}, no pipeline, check
   * or fault, an empty recorded command, the system's UTC clock.
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final CdcSource source;
    private Path outDirectory = Path.of("lab-runs");
    private List<PipelineProvider> pipelines = List.of();
    private List<ReconciliationCheck> checks = List.of();
    private List<FaultInjector> faults = List.of();
    private List<String> command = List.of();
    private Clock clock = Clock.systemUTC();
    private PhaseListener phaseListener = PhaseListener.NONE;

    private Builder(CdcSource source) {
      this.source = Objects.requireNonNull(source, "source");
    }

    /** Where run records and each run's own files go. */
    public Builder outDirectory(Path directory) {
      this.outDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The pipeline providers a plan chooses from by name. */
    public Builder pipelines(List<PipelineProvider> providers) {
      this.pipelines = List.copyOf(providers);
      return this;
    }

    /** The checks run after catch-up. */
    public Builder checks(List<ReconciliationCheck> all) {
      this.checks = List.copyOf(all);
      return this;
    }

    /** The fault injectors a plan chooses from by name. */
    public Builder faults(List<FaultInjector> injectors) {
      this.faults = List.copyOf(injectors);
      return this;
    }

    /** The command line that started the lab, for the record (secrets are masked). */
    public Builder command(List<String> arguments) {
      this.command = List.copyOf(arguments);
      return this;
    }

    /** The clock of every wait and every recorded time. */
    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Told as each phase of a scenario starts, to show what a long wait is waiting for. */
    public Builder phaseListener(PhaseListener listener) {
      this.phaseListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public ScenarioRunner build() {
      return new ScenarioRunner(this);
    }
  }
}
