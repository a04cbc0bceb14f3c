package io.reliabilitylab.harness.cli;

import io.reliabilitylab.harness.explore.CaseFile;
import io.reliabilitylab.harness.explore.ExploreReport;
import io.reliabilitylab.harness.explore.ExploreSettings;
import io.reliabilitylab.harness.explore.Explorer;
import io.reliabilitylab.harness.explore.Trial;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code reliability-lab replay}: an explored case again, from its file or its seed. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Runs an explored case again and says whether it shows the same: the same workload digest,"
          + " the same fault positions, the same exit code and the same failures.",
      "Given a case file (explore-<id>-minimal.case.json, explore-<id>-try-<n>.case.json), runs"
          + " that case. Given a seed, draws and runs the same cases 'explore --seed <seed>' drew"
          + " (pass the same --pipeline, --tries and --max-changes), without shrinking.",
      "Exit code: the case's own: 0 passed, 1 failed, 2 usage or environment error."
    })
final class ReplayCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "CASE_FILE|SEED",
      description = "A case file written by 'explore', or an explore seed.")
  private String caseOrSeed = "";

  // with a seed: the explore's --pipeline, --tries and --max-changes
  @Mixin private ExploreDraws draws = new ExploreDraws();

  @Mixin private SourceOptions sourceOptions = new SourceOptions();

  @Mixin private PipelineOptions pipelineOptions = new PipelineOptions();

  private final ClassLoader pluginClassLoader;
  private final List<String> commandLine;

  ReplayCommand(ClassLoader pluginClassLoader, List<String> commandLine) {
    this.pluginClassLoader = pluginClassLoader;
    this.commandLine = commandLine;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws Exception {
    // Every argument is checked before the output directory is made ready (and the log named
    // there): bad input leaves nothing behind.
    Path file = Path.of(caseOrSeed);
    if (Files.isRegularFile(file)) {
      CaseFile caseFile = readCase(file);
      Map<String, String> options = optionsOf(caseFile);
      OutputDirectory.require(spec, draws.out);
      return replayFile(file, caseFile, options);
    }
    long seed;
    try {
      seed = Long.parseLong(caseOrSeed.strip());
    } catch (NumberFormatException e) {
      throw new ParameterException(
          spec.commandLine(),
          "'"
              + caseOrSeed
              + "' is neither a case file nor a seed; pass a file 'explore' wrote"
              + " (explore-<id>-minimal.case.json) or the seed its report names");
    }
    ExploreSettings settings;
    try {
      // The same draws as the explore that named the seed; nothing shrunk.
      settings =
          new ExploreSettings(draws.tries, seed, 1, draws.maxChanges, Duration.ofSeconds(1), 0);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    OutputDirectory.require(spec, draws.out);
    return replaySeed(settings);
  }

  private CaseFile readCase(Path file) {
    try {
      return Explorer.readCase(file);
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** The case's pipeline options with the command line's on top; none of them still masked. */
  private Map<String, String> optionsOf(CaseFile caseFile) {
    Map<String, String> options = new LinkedHashMap<>(caseFile.options());
    options.putAll(pipelineOptions.extra());
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (Redactor.MASK.equals(option.getValue())) {
        throw new ParameterException(
            spec.commandLine(),
            "the case file masks the secret pipeline option '"
                + option.getKey()
                + "'; pass it again with --pipeline-option "
                + option.getKey()
                + "=...");
      }
    }
    return options;
  }

  private int replayFile(Path file, CaseFile caseFile, Map<String, String> options)
      throws Exception {
    PrintWriter printer = spec.commandLine().getOut();
    try (Exploration exploration =
        Exploration.open(
            pluginClassLoader,
            spec,
            sourceOptions,
            commandLine,
            new Exploration.Target(
                caseFile.pipeline(), options, pipelineOptions.catchUpTimeout(), draws.out))) {
      exploration.print(
          () ->
              printer.printf(
                  "Replaying %s on %s: %s%n",
                  file, caseFile.pipeline(), caseFile.exploreCase().describe()));
      Explorer.Replay replay = exploration.explorer().replay(caseFile);
      exploration.print(() -> printReplay(printer, caseFile, replay));
      return replay.trial().exitCode().code();
    }
  }

  private static void printReplay(PrintWriter printer, CaseFile caseFile, Explorer.Replay replay) {
    Trial trial = replay.trial();
    printer.printf(
        "%nReplay: %s%s (run record %s.json)%n",
        trial.exitCode() == ExitCode.PASSED ? "passed" : "FAILED",
        trial.failures().isEmpty() ? "" : ": " + String.join(", ", trial.failures()),
        trial.runId());
    for (CheckResult check : trial.failedChecks()) {
      printer.printf("  %-30s %s%n", check.check(), check.summary());
    }
    printer.println(
        replay.reproduced()
            ? "REPRODUCED: the same workload digest, fault positions, exit code and failures as"
                + " the case file"
            : "DIFFERENT from the case file: it recorded exit code "
                + caseFile.exitCode().code()
                + " "
                + caseFile.failures()
                + " at "
                + caseFile.positions()
                + ", the replay exit code "
                + trial.exitCode().code()
                + " "
                + trial.failures()
                + " at "
                + trial.positions());
  }

  private int replaySeed(ExploreSettings settings) throws Exception {
    PrintWriter printer = spec.commandLine().getOut();
    try (Exploration exploration =
        Exploration.open(
            pluginClassLoader,
            spec,
            sourceOptions,
            commandLine,
            new Exploration.Target(
                draws.pipeline,
                pipelineOptions.asOptions(),
                pipelineOptions.catchUpTimeout(),
                draws.out))) {
      exploration.print(
          () ->
              printer.printf(
                  "Replaying seed %d on %s: %d tries ...%n",
                  settings.seed(), draws.pipeline, draws.tries));
      ExploreReport report =
          exploration
              .explorer()
              .onTrial(trial -> exploration.print(() -> ExploreCommand.printTrial(printer, trial)))
              .explore(settings);
      exploration.print(() -> ExploreCommand.print(printer, report));
      return report.exitCode().code();
    }
  }
}
