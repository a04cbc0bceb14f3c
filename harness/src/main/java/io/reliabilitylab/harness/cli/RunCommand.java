package io.reliabilitylab.harness.cli;

import io.reliabilitylab.report.Dashboard;
import io.reliabilitylab.report.RunDirectory;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.runner.suite.Suite;
import io.reliabilitylab.runner.suite.SuiteListener;
import io.reliabilitylab.runner.suite.SuiteResult;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.SourceProcessControl;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code reliability-lab run}: one scenario through the lab's lifecycle, with a run record. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Runs a pipeline through the lab: starts the source (an embedded MariaDB unless"
          + " --source-jdbc-url is given), starts the pipeline, writes a seeded workload, awaits"
          + " catch-up by measurement, reconciles source and sink with every discovered check, and"
          + " writes a run record (JSON) into --out.",
      "Exit code: 0 passed, 1 a check failed, 2 usage or environment error, 3 inconclusive."
    })
final class RunCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--pipeline",
      defaultValue = "direct",
      description = "The pipeline to run, by name (see 'list'). Default: ${DEFAULT-VALUE}.")
  private String pipeline = "direct";

  @Option(
      names = "--faults",
      defaultValue = "none",
      description =
          "Faults to inject, each variant as its own scenario: 'none', 'all', or a"
              + " comma-separated list of fault names (all their variants) and"
              + " <fault>:<variant> (see 'list'), each optionally ending in"
              + " @<parameter>=<value> to set a parameter of its fault, e.g."
              + " network-latency:broker@latency-ms=800. Default: ${DEFAULT-VALUE}.")
  private String faults = "none";

  @Option(
      names = "--scenarios",
      defaultValue = "none",
      description =
          "Exercises run as scenarios of their own after the faults: 'none', 'all', or a"
              + " comma-separated list of pressure, compaction. Default: ${DEFAULT-VALUE}.")
  private String scenarios = "none";

  @Option(
      names = "--events",
      defaultValue = "2000",
      description = "Change events the seeded workload writes. Default: ${DEFAULT-VALUE}.")
  private int events = 2000;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description =
          "Workload seed; the same seed gives the same workload. Default: ${DEFAULT-VALUE}.")
  private long seed = 42;

  @Option(
      names = "--out",
      defaultValue = "lab-runs",
      description = "Directory for run records and each run's files. Default: ${DEFAULT-VALUE}.")
  private Path out = Path.of("lab-runs");

  @Option(
      names = "--no-report",
      description =
          "Do not write the HTML dashboard (" + Dashboard.FILE_NAME + ") next to the records.")
  private boolean noReport;

  @Mixin private SourceOptions sourceOptions = new SourceOptions();

  @Mixin private PipelineOptions pipelineOptions = new PipelineOptions();

  private final ClassLoader pluginClassLoader;
  private final List<String> commandLine;

  RunCommand(ClassLoader pluginClassLoader, List<String> commandLine) {
    this.pluginClassLoader = pluginClassLoader;
    this.commandLine = commandLine;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws Exception {
    if (events < 0) {
      throw new ParameterException(
          spec.commandLine(), "--events must be >= 0, got " + events + ".");
    }
    Discovered<PipelineProvider> pipelines =
        Discovered.pipelines(pluginClassLoader).requireNoProblems();
    // An unknown pipeline is refused here, with the discovered ones listed, before anything runs.
    pipelines.get(pipeline);
    List<FaultInjector> discoveredFaults =
        Discovered.faults(pluginClassLoader).requireNoProblems().all();
    List<ReconciliationCheck> checks =
        Discovered.checks(pluginClassLoader).requireNoProblems().all();
    PrintWriter printer = spec.commandLine().getOut();
    Suite.Builder builder =
        Suite.builder(pipeline)
            .plugins(pipelines.all(), checks, discoveredFaults)
            .faults(faults)
            .exercises(scenarios)
            .seed(seed)
            .events(events)
            .pipelineOptions(pipelineOptions.asOptions())
            .sourceEngine(sourceOptions.engineOption())
            .labCapabilities(
                sourceOptions.runsServerProcess() ? Set.of(SourceProcessControl.class) : Set.of())
            .catchUpTimeout(pipelineOptions.catchUpTimeout())
            .outDirectory(out)
            .command(commandLine)
            .clock(Clock.systemUTC());
    try (SuiteConsole console =
        new SuiteConsole(printer, verbose(), WaitStatus.standardOutputIsATerminal())) {
      builder.listener(console);
      if (!noReport) {
        builder.listener(new DashboardWriter(printer));
      }
      Suite suite;
      try {
        suite = builder.build();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      console.scenarios(suite.plans().size());
      OutputDirectory.require(spec, out);
      try (CdcSource source = sourceOptions.open()) {
        SuiteResult result = suite.run(source);
        printer.flush();
        return result.exitCode().code();
      }
    }
  }

  /** Whether --verbose, inherited from the top command, was given. */
  private boolean verbose() {
    OptionSpec option = spec.findOption(LabCommand.VERBOSE);
    return option != null && Boolean.TRUE.equals(option.getValue());
  }

  /** Writes the HTML dashboard next to the records once the summary is written. */
  private final class DashboardWriter implements SuiteListener {
    private final PrintWriter printer;

    DashboardWriter(PrintWriter printer) {
      this.printer = printer;
    }

    @Override
    public void suiteFinished(SuiteResult result) {
      // The records are written and decide the exit code; a dashboard that cannot be written is
      // reported, not allowed to change it.
      Path directory = result.outDirectory();
      try {
        Path page =
            Dashboard.write(RunDirectory.read(directory), directory.resolve(Dashboard.FILE_NAME));
        printer.printf("Dashboard: %s%n", page);
      } catch (IOException | RuntimeException e) {
        spec.commandLine()
            .getErr()
            .println("reliability-lab run: the dashboard was not written: " + Errors.oneLine(e));
      }
    }
  }
}
