package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.LabOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scenario of a test, built fluently and run by the lab: a clean baseline of a seeded workload,
 * reconciled; then each injected fault while the rest of the workload is written; then catch-up and
 * the final checks. It starts from the defaults of its {@link ReliabilityLabExtension}.
 *
 * <pre>{@code
 * RunRecord run = lab.scenario().seed(42).events(1_000).inject("task-failure").run();
 * RunRecord variant = lab.scenario().inject("task-failure:snapshot-phase").run();
 * RunRecord placed = lab.scenario().inject("checkpoint-failure", "at-checkpoint:2").run();
 * }</pre>
 *
 * A scenario without {@code inject} is the clean baseline alone.
 */
@API(status = EXPERIMENTAL)
public final class ScenarioBuilder {

  private static final Logger LOG = LoggerFactory.getLogger(ScenarioBuilder.class);

  /** One requested fault: the variant chosen and, when the test placed it, where it fires. */
  private record Injection(FaultSelection.Choice choice, @Nullable FaultPosition position) {

    String scenarioName() {
      return choice.scenarioName() + (position == null ? "" : "@" + position.text());
    }

    PlannedFault planned() {
      FaultVariant variant = choice.variant();
      return position == null
          ? new PlannedFault(
              choice.fault().name(),
              variant.position(),
              variant.parameters(),
              choice.countedFromInjection())
          : new PlannedFault(choice.fault().name(), position, variant.parameters(), true);
    }
  }

  private final CurrentTest test;
  private final Clock clock;
  private ScenarioSettings settings;
  private List<String> command;
  private final List<Injection> injections = new ArrayList<>();

  ScenarioBuilder(ScenarioSettings settings, CurrentTest test, Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.test = Objects.requireNonNull(test, "test");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.command = test.command();
  }

  /**
   * Runs this scenario on another pipeline than the extension's: one discovered on the class path
   * or given with {@link ReliabilityLabExtension#withPipeline}.
   *
   * @throws IllegalArgumentException for a pipeline the extension does not know, naming those it
   *     knows
   */
  public ScenarioBuilder pipeline(String name) {
    Objects.requireNonNull(name, "pipeline");
    test.lab().plugins().requirePipelineArgument(name.strip());
    settings = settings.withPipeline(name);
    return this;
  }

  /** The workload's seed: the same seed writes the same changes. */
  public ScenarioBuilder seed(long seed) {
    settings = settings.withSeed(seed);
    return this;
  }

  /** How many change events the workload writes, about half of them after the faults. */
  public ScenarioBuilder events(int events) {
    settings = settings.withEvents(events);
    return this;
  }

  /** One more pipeline option ({@link io.reliabilitylab.spi.pipeline.LabOptions} and the like). */
  public ScenarioBuilder option(String key, String value) {
    settings = settings.withOption(key, value);
    return this;
  }

  /**
   * Runs the pipeline on the Flink cluster {@code cluster} names: {@code embedded} (a MiniCluster,
   * the default) or {@code processes[:<N>tm][:2jm]} (JobManager and TaskManager JVMs the lab
   * starts, shared by the scenarios of the test JVM and stopped when it exits), e.g. {@code
   * flinkCluster("processes:2jm")} for {@code jobmanager-failover}.
   */
  public ScenarioBuilder flinkCluster(String cluster) {
    return option(LabOptions.FLINK_CLUSTER, cluster);
  }

  /** The deadline for the job to run and complete a first checkpoint. */
  public ScenarioBuilder startTimeout(Duration timeout) {
    settings = settings.withStartTimeout(timeout);
    return this;
  }

  /** The deadline for recovery from each fault and for the sink to catch up. */
  public ScenarioBuilder catchUpTimeout(Duration timeout) {
    settings = settings.withCatchUpTimeout(timeout);
    return this;
  }

  /**
   * Injects a fault after the baseline: {@code <fault>} runs its default variant, {@code
   * <fault>:<variant>} another one, as {@code run --faults} names them. Faults are injected in the
   * order given.
   *
   * @throws IllegalArgumentException for an unknown fault or variant, naming the known ones
   */
  public ScenarioBuilder inject(String fault) {
    injections.add(new Injection(choose(fault), null));
    return this;
  }

  /**
   * Injects a fault at a logical position in its text form: {@code now}, {@code after-event:K},
   * {@code at-checkpoint:N}, {@code around-commit:N:before-swap|after-swap}, {@code
   * snapshot-phase:K}.
   *
   * @see #inject(String, FaultPosition)
   */
  public ScenarioBuilder inject(String fault, String position) {
    return inject(fault, FaultPosition.parse(Objects.requireNonNull(position, "position")));
  }

  /**
   * Injects a fault at a logical position. Checkpoints count from the injection, as events and
   * snapshot rows always do: {@code at-checkpoint:2} is the second checkpoint after the baseline.
   *
   * @throws IllegalArgumentException for an unknown fault or variant, or a position the fault does
   *     not support
   */
  public ScenarioBuilder inject(String fault, FaultPosition position) {
    Objects.requireNonNull(position, "position");
    FaultSelection.Choice choice = choose(fault);
    if (!choice.fault().supportedPositions().contains(position.kind())) {
      throw new IllegalArgumentException(
          "Fault '"
              + choice.fault().name()
              + "' cannot fire at "
              + position.text()
              + "; it supports "
              + choice.fault().supportedPositions());
    }
    injections.add(new Injection(choice, position));
    return this;
  }

  /** The command the record names instead of {@code junit <test class>#<test method>}. */
  public ScenarioBuilder command(List<String> recorded) {
    this.command = List.copyOf(recorded);
    return this;
  }

  /** The plan the runner is given, as built so far. */
  public ScenarioPlan plan() {
    ScenarioPlan baseline = settings.baseline();
    if (injections.isEmpty()) {
      return baseline;
    }
    if (injections.size() == 1 && injections.get(0).position() == null) {
      // as `run --faults` runs a variant: the record names it and any hazard it is known for
      FaultSelection.Choice only = injections.get(0).choice();
      return baseline.withFaultVariant(
          only.fault().name(), only.variant(), only.countedFromInjection());
    }
    return baseline.withFaults(
        injections.stream().map(Injection::scenarioName).collect(Collectors.joining("+")),
        injections.stream().map(Injection::planned).toList());
  }

  /** Where the run's record and files go: {@code <runs>/<test class>/<test method>}. */
  public Path runDirectory() {
    return test.runDirectory();
  }

  /** The command the run record names. */
  public List<String> command() {
    return command;
  }

  /**
   * Runs the scenario and returns its record, also written as {@code <run id>.json} into {@link
   * #runDirectory()}. A pipeline that misbehaves does not throw: the record says what failed.
   */
  public RunRecord run() throws Exception {
    ScenarioPlan plan = plan();
    LabPlugins plugins = test.lab().plugins();
    ScenarioRunner runner =
        new ScenarioRunner(
            test.lab().source(),
            test.runDirectory(),
            plugins.pipelines(),
            plugins.checks(),
            plugins.faults(),
            command,
            clock);
    long started = System.nanoTime();
    RunRecord record = runner.run(plan);
    LOG.info(
        "Scenario {} on {} took {} ms: {} {}",
        plan.scenario(),
        plan.pipeline(),
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        record.summary().verdict(),
        record.summary().reasons());
    return record;
  }

  /** The one variant {@code name} selects: a fault's default variant, or the one named. */
  private FaultSelection.Choice choose(String name) {
    Objects.requireNonNull(name, "fault");
    String spec = name.strip();
    if (spec.contains(",") || spec.equals("all") || spec.equals("none")) {
      throw new IllegalArgumentException(
          "inject names one fault, as <fault> or <fault>:<variant>, not '"
              + name
              + "'; call inject once per fault");
    }
    List<FaultInjector> discovered = test.lab().plugins().faults();
    List<FaultSelection.Choice> choices = FaultSelection.parse(spec, discovered);
    if (spec.indexOf(':') >= 0) {
      return choices.get(0);
    }
    // a fault's name alone selects each of its variants; a test means the plain one
    return choices.stream()
        .filter(choice -> FaultVariant.DEFAULT.equals(choice.variant().name()))
        .findFirst()
        .orElse(choices.get(0));
  }
}
