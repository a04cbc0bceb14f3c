package io.reliabilitylab.harness.cli;

import io.reliabilitylab.harness.explore.ExploreSpace;
import io.reliabilitylab.harness.explore.Explorer;
import io.reliabilitylab.harness.explore.ScenarioTrials;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What {@code explore} and {@code replay} share: the source, the runner, the explorer and the
 * console, where a status line shows each run's phase while it waits.
 */
final class Exploration implements AutoCloseable {

  private static final String SCENARIO_PREFIX = "explore:";

  private final CdcSource source;
  private final ExploreSpace space;
  private final Explorer explorer;
  private final WaitStatus status;

  private Exploration(CdcSource source, ExploreSpace space, Explorer explorer, WaitStatus status) {
    this.source = source;
    this.space = space;
    this.explorer = explorer;
    this.status = status;
  }

  /**
   * What the runs of an exploration are on and where they go.
   *
   * @param pipeline the pipeline's name
   * @param options the pipeline options of every run
   * @param catchUpTimeout the deadline for a run's sink to catch up
   * @param out where the report, case files and run records go
   */
  record Target(String pipeline, Map<String, String> options, Duration catchUpTimeout, Path out) {}

  static Exploration open(
      ClassLoader pluginClassLoader,
      CommandSpec spec,
      SourceOptions sourceOptions,
      List<String> commandLine,
      Target target)
      throws Exception {
    String pipeline = target.pipeline();
    Map<String, String> options = target.options();
    Path out = target.out();
    Discovered<PipelineProvider> pipelines =
        Discovered.pipelines(pluginClassLoader).requireNoProblems();
    PipelineProvider provider = pipelines.get(pipeline);
    List<FaultInjector> faults = Discovered.faults(pluginClassLoader).requireNoProblems().all();
    ExploreSpace space;
    try {
      space = new ExploreSpace(faults, provider.capabilities(options));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    CdcSource source = sourceOptions.open();
    WaitStatus status =
        new WaitStatus(
            spec.commandLine().getOut(),
            WaitStatus.standardOutputIsATerminal(),
            System::nanoTime,
            true);
    try {
      ScenarioRunner runner =
          ScenarioRunner.builder(source)
              .outDirectory(out)
              .pipelines(pipelines.all())
              .checks(Discovered.checks(pluginClassLoader).requireNoProblems().all())
              .faults(faults)
              .command(commandLine)
              .clock(Clock.systemUTC())
              .phaseListener((plan, phase) -> status.waiting(runName(plan), phase))
              .build();
      Explorer explorer =
          new Explorer(
              space,
              new ScenarioTrials(runner, space, pipeline, options, target.catchUpTimeout()),
              pipeline,
              options,
              out,
              commandLine);
      return new Exploration(source, space, explorer, status);
    } catch (RuntimeException e) {
      status.close();
      source.close();
      throw e;
    }
  }

  /** {@code explore:shrinking-12} is shown as {@code shrinking 12}. */
  private static String runName(ScenarioPlan plan) {
    String scenario = plan.scenario();
    return (scenario.startsWith(SCENARIO_PREFIX)
            ? scenario.substring(SCENARIO_PREFIX.length())
            : scenario)
        .replace('-', ' ');
  }

  /** Prints lines of the command's own, the running wait's status line out of their way. */
  void print(Runnable lines) {
    status.stop();
    status.print(lines);
  }

  ExploreSpace space() {
    return space;
  }

  Explorer explorer() {
    return explorer;
  }

  @Override
  public void close() throws Exception {
    try {
      status.close();
    } finally {
      source.close();
    }
  }
}
