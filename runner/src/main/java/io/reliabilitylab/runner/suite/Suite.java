package io.reliabilitylab.runner.suite;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.runner.Exercise;
import io.reliabilitylab.runner.Exercises;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.phase.Lab;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.secret.Redactor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A suite of scenarios on one pipeline and one source: a baseline, then each selected fault variant
 * and each selected exercise as a scenario of its own — fresh tables, the same seed, the same
 * source — and a summary record ({@code suite-<id>.json}) next to the runs' records.
 *
 * <pre>{@code
 * Suite suite = Suite.builder("direct")
 *     .plugins(pipelines, checks, faults)
 *     .faults("all")
 *     .exercises("pressure")
 *     .seed(42).events(2_000)
 *     .outDirectory(Path.of("lab-runs"))
 *     .build(); // a selection naming nothing known is refused here, before any source starts
 * try (CdcSource source = EmbeddedMariaDb.start()) {
 *   SuiteResult result = suite.run(source);
 *   System.exit(result.exitCode().code());
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Suite {

  private final List<ScenarioPlan> plans;
  private final List<PipelineProvider> pipelines;
  private final List<ReconciliationCheck> checks;
  private final List<FaultInjector> faults;
  private final Path outDirectory;
  private final List<String> command;
  private final Clock clock;
  private final List<SuiteListener> listeners;

  private Suite(List<ScenarioPlan> plans, Builder builder) {
    this.plans = List.copyOf(plans);
    this.pipelines = builder.pipelines;
    this.checks = builder.checks;
    this.faults = builder.faults;
    this.outDirectory = builder.outDirectory;
    this.command = builder.command;
    this.clock = builder.clock;
    this.listeners = List.copyOf(builder.listeners);
  }

  /** A suite on the pipeline named {@code pipeline}. */
  public static Builder builder(String pipeline) {
    return new Builder(pipeline);
  }

  /** The scenarios in the order they run: the baseline first, then faults, then exercises. */
  public List<ScenarioPlan> plans() {
    return plans;
  }

  /**
   * Runs every scenario on {@code source}, started by the caller, writes the summary record and
   * tells the listeners; returns the records and the summary.
   */
  public SuiteResult run(CdcSource source) throws Exception {
    ScenarioRunner runner =
        ScenarioRunner.builder(source)
            .outDirectory(outDirectory)
            .pipelines(pipelines)
            .checks(checks)
            .faults(faults)
            .command(command)
            .clock(clock)
            .phaseListener(this::phaseStarting)
            .build();
    for (SuiteListener listener : listeners) {
      listener.suiteStarting(source);
    }
    Instant started = clock.instant();
    List<RunRecord> records = new ArrayList<>();
    for (ScenarioPlan plan : plans) {
      for (SuiteListener listener : listeners) {
        listener.scenarioStarting(plan);
      }
      RunRecord record = runner.run(plan);
      records.add(record);
      for (SuiteListener listener : listeners) {
        listener.scenarioFinished(record);
      }
    }
    SuiteSummary summary =
        SuiteSummary.of(
            RunId.next(started), started, clock.instant(), Redactor.commandLine(command), records);
    new RunRecordWriter(outDirectory).writeSuite(summary);
    SuiteResult result = new SuiteResult(records, summary, outDirectory);
    for (SuiteListener listener : listeners) {
      listener.suiteFinished(result);
    }
    return result;
  }

  private void phaseStarting(ScenarioPlan plan, String phase) {
    listeners.forEach(listener -> listener.phaseStarting(plan, phase));
  }

  /**
   * What a suite runs and where it reports, each part defaulted: no fault, no exercise, seed 42,
   * 2,000 events, no extra pipeline option, 60 s to start and 120 s to catch up, records in {@code
   * lab-runs}, an empty recorded command, the system's UTC clock.
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final String pipeline;
    private List<PipelineProvider> pipelines = List.of();
    private List<ReconciliationCheck> checks = List.of();
    private List<FaultInjector> faults = List.of();
    private String faultSelection = "none";
    private String exerciseSelection = "none";
    private long seed = 42;
    private int events = 2_000;
    private Map<String, String> pipelineOptions = Map.of();
    private @Nullable String sourceEngine;
    private Set<Class<? extends PipelineCapability>> labCapabilities = Set.of();
    private Duration startTimeout = Duration.ofSeconds(60);
    private Duration catchUpTimeout = Duration.ofSeconds(120);
    private Path outDirectory = Path.of("lab-runs");
    private List<String> command = List.of();
    private Clock clock = Clock.systemUTC();
    private final List<SuiteListener> listeners = new ArrayList<>();

    private Builder(String pipeline) {
      this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /**
     * The discovered pipelines, checks and faults (see {@link
     * io.reliabilitylab.runner.discovery.Discovered}).
     */
    public Builder plugins(
        List<PipelineProvider> providers,
        List<ReconciliationCheck> allChecks,
        List<FaultInjector> injectors) {
      this.pipelines = List.copyOf(providers);
      this.checks = List.copyOf(allChecks);
      this.faults = List.copyOf(injectors);
      return this;
    }

    /**
     * The faults, each variant a scenario: {@code none}, {@code all} (those the pipeline can take)
     * or a comma-separated list of fault names (all their variants) and {@code <fault>:<variant>}.
     */
    public Builder faults(String selection) {
      this.faultSelection = Objects.requireNonNull(selection, "selection");
      return this;
    }

    /** The exercises run after the faults: {@code none}, {@code all} or a list of names. */
    public Builder exercises(String selection) {
      this.exerciseSelection = Objects.requireNonNull(selection, "selection");
      return this;
    }

    /** The workload seed; the same seed gives the same workload. */
    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    /** How many change events each scenario's workload writes. */
    public Builder events(int count) {
      this.events = count;
      return this;
    }

    /** Pipeline options every scenario runs with (an exercise adds its own). */
    public Builder pipelineOptions(Map<String, String> options) {
      this.pipelineOptions = new LinkedHashMap<>(options);
      return this;
    }

    /**
     * The engine of the source the suite will run on ({@link LabOptions#MYSQL} or {@link
     * LabOptions#POSTGRESQL}), when known before it starts: {@code --faults all} then also picks
     * the faults only that engine can host (a walsender to terminate, say).
     */
    public Builder sourceEngine(String engine) {
      this.sourceEngine = Objects.requireNonNull(engine, "engine");
      return this;
    }

    /**
     * What the lab offers beside the pipeline, e.g. the source database's process when the lab runs
     * it ({@link io.reliabilitylab.spi.pipeline.SourceProcessControl}): {@code --faults all} then
     * also picks the faults that need it.
     */
    public Builder labCapabilities(Set<Class<? extends PipelineCapability>> capabilities) {
      this.labCapabilities = Set.copyOf(capabilities);
      return this;
    }

    /** The deadline for a job to run and complete a first checkpoint. */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The deadline for the sink to hold the last written event. */
    public Builder catchUpTimeout(Duration timeout) {
      this.catchUpTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** Where the run records, the summary and each run's files go. */
    public Builder outDirectory(Path directory) {
      this.outDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The command line that started the suite, for the records (secrets are masked). */
    public Builder command(List<String> arguments) {
      this.command = List.copyOf(arguments);
      return this;
    }

    /** The clock of every wait and every recorded time. */
    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** One more listener, told in the order added. */
    public Builder listener(SuiteListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * The suite, its scenarios planned.
     *
     * @throws IllegalArgumentException for an unknown pipeline, fault, variant or exercise, or a
     *     negative event count, naming what is known
     */
    public Suite build() {
      PipelineProvider provider = Lab.named(pipelines, pipeline, "pipeline");
      Map<String, String> planningOptions = new LinkedHashMap<>(pipelineOptions);
      if (sourceEngine != null) {
        planningOptions.put(LabOptions.SOURCE_ENGINE, sourceEngine);
      }
      Set<Class<? extends PipelineCapability>> offered =
          new HashSet<>(provider.capabilities(planningOptions));
      offered.addAll(labCapabilities);
      List<FaultSelection.Choice> chosenFaults =
          FaultSelection.parse(faultSelection, faults, offered);
      List<Exercise> chosenExercises = Exercises.select(exerciseSelection);
      ScenarioPlan baseline =
          new ScenarioPlan(
              pipeline,
              "baseline",
              seed,
              events,
              pipelineOptions,
              startTimeout,
              catchUpTimeout,
              List.of());
      List<ScenarioPlan> plans = new ArrayList<>();
      plans.add(baseline);
      for (FaultSelection.Choice choice : chosenFaults) {
        plans.add(
            baseline.withFaultVariant(
                choice.fault().name(), choice.variant(), choice.countedFromInjection()));
      }
      for (Exercise exercise : chosenExercises) {
        plans.add(baseline.withExercise(exercise.name(), exercise.options()));
      }
      return new Suite(plans, this);
    }
  }
}
