package io.reliabilitylab.harness.cli;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.report.Dashboard;
import io.reliabilitylab.report.RunDirectory;
import io.reliabilitylab.runner.Exercises;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.PressureExercise;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    PipelineProvider provider = pipelines.get(pipeline);
    Discovered<FaultInjector> discoveredFaults =
        Discovered.faults(pluginClassLoader).requireNoProblems();
    List<FaultSelection.Choice> selectedFaults;
    List<String> exercises;
    try {
      selectedFaults =
          FaultSelection.parse(faults, discoveredFaults.all(), provider.capabilities());
      exercises = exercises(scenarios);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter printer = spec.commandLine().getOut();
    try (SourceDatabase source = sourceOptions.open()) {
      ScenarioRunner runner =
          new ScenarioRunner(
              source,
              out,
              pipelines.all(),
              Discovered.checks(pluginClassLoader).requireNoProblems().all(),
              discoveredFaults.all(),
              commandLine,
              Clock.systemUTC());
      ScenarioPlan baseline =
          new ScenarioPlan(
              pipeline,
              "baseline",
              seed,
              events,
              pipelineOptions.asOptions(),
              Duration.ofSeconds(60),
              pipelineOptions.catchUpTimeout(),
              List.of());
      // A baseline, then each fault as its own scenario: fresh tables, the same seed, the same
      // embedded database.
      List<ScenarioPlan> plans = new ArrayList<>();
      plans.add(baseline);
      for (FaultSelection.Choice choice : selectedFaults) {
        plans.add(baseline.withFaultVariant(choice.fault().name(), choice.variant()));
      }
      for (String exercise : exercises) {
        plans.add(
            baseline.withExercise(
                exercise, exercise.equals("pressure") ? PressureExercise.OPTIONS : Map.of()));
      }
      Instant suiteStart = Instant.now();
      List<RunRecord> records = new ArrayList<>();
      for (ScenarioPlan plan : plans) {
        printer.printf(
            "Running %s / %s on %s (%s), %d events, seed %d ...%n",
            pipeline, plan.scenario(), source.kind(), source.jdbcUrl(), events, seed);
        printer.flush();
        RunRecord record = runner.run(plan);
        print(printer, record);
        records.add(record);
      }
      SuiteSummary suite =
          SuiteSummary.of(
              RunId.next(suiteStart),
              suiteStart,
              Instant.now(),
              Redactor.commandLine(commandLine),
              records);
      new RunRecordWriter(out).writeSuite(suite);
      printer.printf(
          "%nSuite %s: %s (%d scenarios)%n", suite.suiteId(), suite.verdict(), records.size());
      if (!noReport) {
        // The records are written and decide the exit code; a dashboard that cannot be written
        // is reported, not allowed to change it.
        try {
          Path page = Dashboard.write(RunDirectory.read(out), out.resolve(Dashboard.FILE_NAME));
          printer.printf("Dashboard: %s%n", page);
        } catch (IOException | RuntimeException e) {
          spec.commandLine()
              .getErr()
              .println("reliability-lab run: the dashboard was not written: " + Errors.oneLine(e));
        }
      }
      printer.flush();
      return suite.exitCode().code();
    }
  }

  /** The exercises named by {@code --scenarios}, in the lab's order for {@code all}. */
  private static List<String> exercises(String selection) {
    String trimmed = selection.strip();
    if (trimmed.equals("none")) {
      return List.of();
    }
    if (trimmed.equals("all")) {
      return Exercises.names();
    }
    List<String> chosen = new ArrayList<>();
    for (String part : trimmed.split(",", -1)) {
      String name = part.strip();
      if (!name.isEmpty() && !chosen.contains(name)) {
        chosen.add(Exercises.named(name).name());
      }
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException(
          "--scenarios names none; use 'none', 'all' or some of " + Exercises.names());
    }
    return chosen;
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
