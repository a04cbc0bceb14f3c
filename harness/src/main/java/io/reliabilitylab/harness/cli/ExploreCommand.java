package io.reliabilitylab.harness.cli;

import io.reliabilitylab.harness.explore.ExploreReport;
import io.reliabilitylab.harness.explore.ExploreSettings;
import io.reliabilitylab.harness.explore.Trial;
import io.reliabilitylab.spi.check.CheckResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code reliability-lab explore}: random fault schedules, a failure shrunk to a minimal case. */
@Command(
    name = "explore",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Explores random fault schedules: jqwik draws a workload and one to three faults the pipeline"
          + " can take, each at a logical position (after event k, at checkpoint n, around the"
          + " commit of checkpoint n, in the snapshot phase), runs each case through the lab and"
          + " checks that every check passes after recovery. The first failing case is shrunk to a"
          + " minimal one (bounded by --shrink-time and --shrink-tries) and written as a case file"
          + " that 'replay' runs again.",
      "Writes explore-<id>.json (every try, the coverage of fault x position cells, the finding)"
          + " and each try's run record into --out.",
      "Exit code: 0 every try passed, 1 a case failed, 2 usage or environment error."
    })
final class ExploreCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--seed",
      description =
          "jqwik's seed: the same seed and --tries draw the same cases (default: a random seed,"
              + " named in the report).")
  private @Nullable Long seed;

  @Option(
      names = "--shrink-time",
      defaultValue = "10m",
      converter = DurationConverter.class,
      description = "jqwik's bound on shrinking a failure. Default: ${DEFAULT-VALUE}.")
  private Duration shrinkTime = Duration.ofMinutes(10);

  @Option(
      names = "--shrink-tries",
      defaultValue = "30",
      description = "The most cases run while shrinking. Default: ${DEFAULT-VALUE}.")
  private int shrinkTries = 30;

  @Mixin private ExploreDraws draws = new ExploreDraws();

  @Mixin private SourceOptions sourceOptions = new SourceOptions();

  @Mixin private PipelineOptions pipelineOptions = new PipelineOptions();

  private final ClassLoader pluginClassLoader;
  private final List<String> commandLine;

  ExploreCommand(ClassLoader pluginClassLoader, List<String> commandLine) {
    this.pluginClassLoader = pluginClassLoader;
    this.commandLine = commandLine;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws Exception {
    ExploreSettings settings;
    try {
      settings =
          new ExploreSettings(draws.tries, seed, 1, draws.maxChanges, shrinkTime, shrinkTries);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    // after the usage checks: a mistyped option gets its one line, not a log file created first
    OutputDirectory.require(spec, draws.out);
    PrintWriter printer = spec.commandLine().getOut();
    Map<String, String> options = pipelineOptions.asOptions();
    try (Exploration exploration =
        Exploration.open(
            pluginClassLoader,
            spec,
            sourceOptions,
            commandLine,
            new Exploration.Target(
                draws.pipeline, options, pipelineOptions.catchUpTimeout(), draws.out))) {
      exploration.print(
          () ->
              printer.printf(
                  "Exploring %s: %d tries, up to %d changes, %d fault x position cells ...%n",
                  draws.pipeline,
                  draws.tries,
                  draws.maxChanges,
                  exploration.space().cells().size()));
      ExploreReport report =
          exploration
              .explorer()
              .onTrial(trial -> exploration.print(() -> printTrial(printer, trial)))
              .explore(settings);
      exploration.print(() -> print(printer, report));
      return report.exitCode().code();
    }
  }

  /** One line per run, as it ends. */
  static void printTrial(PrintWriter printer, Trial trial) {
    printer.printf(
        "  %-9s %3d  %-6s %3d changes  %s%s%n",
        trial.phase().name().toLowerCase(Locale.ROOT),
        trial.number(),
        trial.failed() ? "FAILED" : "passed",
        trial.exploreCase().workload().changeCount(),
        trial.exploreCase().scheduleText(),
        trial.failures().isEmpty() ? "" : "  -> " + String.join(", ", trial.failures()));
    printer.flush();
  }

  /** The coverage and the finding, once the exploration ended. */
  static void print(PrintWriter printer, ExploreReport report) {
    long tried = report.coverage().values().stream().filter(count -> count > 0).count();
    printer.printf(
        "%nCoverage: %d of %d fault x position cells tried (seed %s); untried: %s%n",
        tried,
        report.coverage().size(),
        report.seed(),
        report.coverage().entrySet().stream()
            .filter(cell -> cell.getValue() == 0)
            .map(Map.Entry::getKey)
            .sorted()
            .toList());
    ExploreReport.Finding finding = report.finding();
    if (finding != null) {
      printer.printf(
          "%nFAILED at try %d: %s%n  shrunk in %d tries (%d skipped past the cap, %d s) to %d"
              + " changes in %d transactions; faults: %s%n",
          finding.original().number(),
          String.join(", ", finding.original().failures()),
          finding.shrinkTries(),
          finding.shrinkSkipped(),
          finding.shrinkTime().toSeconds(),
          finding.minimal().changes(),
          finding.minimal().transactions(),
          finding.minimal().schedule());
      finding.minimalChanges().forEach(line -> printer.println("  " + line.replace("\n", "\n  ")));
      for (CheckResult check : finding.failingChecks()) {
        printer.printf("  %-30s %s%n", check.check(), check.summary());
      }
      printer.println("Replay: " + finding.replayCommand());
    }
    if (report.problem() != null) {
      printer.println("Stopped: " + report.problem());
    }
    printer.printf("Report: explore-%s.json%n", report.exploreId());
    printer.flush();
  }
}
