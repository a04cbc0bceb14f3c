package io.reliabilitylab.harness.cli;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.report.Dashboard;
import io.reliabilitylab.report.RunDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code reliability-lab report}: a directory of run records as one HTML dashboard. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Writes the run records and suite summaries of a run directory as one self-contained HTML"
          + " page (no network needed to view it): the suite summary, per scenario a timeline,"
          + " checkpoint and commit-lag charts, the reconciliation table with evidence samples,"
          + " the linkage table, dead-letter records (hashes only), environment, stack versions"
          + " and the exact command. 'run' writes it next to its records by default.",
      "Exit code: 0 written, 2 usage or environment error (no such directory, no run record)."
    })
final class ReportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "RUN_DIR",
      description = "A directory of run records, the --out of 'run' (e.g. lab-runs).")
  private Path runDirectory = Path.of("lab-runs");

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "The HTML file to write. Default: RUN_DIR/" + Dashboard.FILE_NAME + ".")
  private @Nullable Path out;

  ReportCommand() {
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws IOException {
    RunDirectory runs;
    try {
      runs = RunDirectory.read(runDirectory);
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), Errors.oneLine(e.getMessage()));
    }
    Path page =
        Dashboard.write(runs, out == null ? runDirectory.resolve(Dashboard.FILE_NAME) : out);
    PrintWriter printer = spec.commandLine().getOut();
    printer.println("Dashboard: " + page);
    printer.flush();
    return ExitCode.PASSED.code();
  }
}
