package io.reliabilitylab.harness.cli;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.report.Dashboard;
import io.reliabilitylab.report.RunDirectory;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.runner.suite.Suite;
import io.reliabilitylab.runner.suite.SuiteListener;
import io.reliabilitylab.runner.suite.SuiteResult;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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
              + " <fault>:<variant> (see 'list'). Default: ${DEFAULT-VALUE}.")
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
            .catchUpTimeout(pipelineOptions.catchUpTimeout())
            .outDirectory(out)
            .command(commandLine)
            .clock(Clock.systemUTC())
            .listener(new Progress(printer));
    if (!noReport) {
      builder.listener(new DashboardWriter(printer));
    }
    Suite suite;
    try {
      suite = builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    OutputDirectory.require(spec, out);
    try (SourceDatabase source = sourceOptions.open()) {
      SuiteResult result = suite.run(source);
      printer.flush();
      return result.exitCode().code();
    }
  }

  /** Prints each scenario as it starts and ends, and the suite's verdict. */
  private final class Progress implements SuiteListener {
    private final PrintWriter printer;
    private String sourceName = "";

    Progress(PrintWriter printer) {
      this.printer = printer;
    }

    @Override
    public void suiteStarting(SourceDatabase source) {
      sourceName = source.kind() + " (" + source.jdbcUrl() + ")";
    }

    @Override
    public void scenarioStarting(ScenarioPlan plan) {
      printer.printf(
          "Running %s / %s on %s, %d events, seed %d ...%n",
          pipeline, plan.scenario(), sourceName, events, seed);
      printer.flush();
    }

    @Override
    public void scenarioFinished(RunRecord record) {
      print(printer, record);
    }

    @Override
    public void suiteFinished(SuiteResult result) {
      SuiteSummary suite = result.summary();
      printer.printf(
          "%nSuite %s: %s (%d scenarios)%n",
          suite.suiteId(), suite.verdict(), result.records().size());
    }
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

  private static void print(PrintWriter printer, RunRecord record) {
    printer.printf("%nRun %s: %s%n", record.runId(), record.summary().verdict());
    List<String> lines = new ArrayList<>();
    for (CheckResult check : record.checks()) {
      lines.add(String.format("  %-30s %-12s %s", check.check(), check.verdict(), check.summary()));
    }
    record
        .faults()
        .forEach(
            fault ->
                lines.add(
                    String.format(
                        "  fault %-24s %-12s %s%s",
                        fault.spec().fault(),
                        fault.evidence().status(),
                        fault.spec().position().text(),
                        fault.recoveryTime() == null
                            ? ""
                            : ", recovered in " + fault.recoveryTime().toMillis() + " ms")));
    record
        .exercises()
        .forEach(
            exercise ->
                lines.add(
                    String.format(
                        "  exercise %-21s %s",
                        exercise.name(),
                        exercise.figures().entrySet().stream()
                            .map(figure -> figure.getKey() + "=" + figure.getValue())
                            .collect(java.util.stream.Collectors.joining(", ")))));
    lines.forEach(printer::println);
    if (record.summary().error() != null) {
      printer.println("  error: " + record.summary().error());
    }
    record
        .timings()
        .forEach((phase, took) -> printer.printf("  %-12s %6d ms%n", phase, took.toMillis()));
    printer.printf("Record: %s.json%n", record.runId());
    printer.flush();
    if (record.summary().exitCode() == ExitCode.PASSED) {
      return;
    }
    record.summary().reasons().forEach(reason -> printer.println("  - " + reason));
  }
}
