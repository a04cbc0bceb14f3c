package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.report.Dashboard;
import io.reliabilitylab.report.DashboardSamples;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

  @TempDir Path directory;

  private String page;

  @BeforeEach
  void render() throws Exception {
    page = Dashboard.render(DashboardSamples.write(directory));
  }

  @Test
  void theCommandWritesTheDashboardIntoTheRunDirectory() throws Exception {
    Run run = report(directory.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.PASSED.code());
    Path written = directory.resolve(Dashboard.FILE_NAME);
    assertThat(run.out()).isEqualTo("Dashboard: " + written.toAbsolutePath() + "\n");
    assertThat(Files.readString(written)).isEqualTo(page);
  }

  @Test
  void theCommandWritesWhereOutSays() throws Exception {
    Path file = directory.resolve("pages/run.html");
    Run run = report(directory.toString(), "--out", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.PASSED.code());
    assertThat(file).exists();
  }

  @Test
  void aMissingDirectoryIsOneLine() {
    Path missing = directory.resolve("nope");
    Run run = report(missing.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.err())
        .isEqualTo(
            "reliability-lab report: "
                + missing
                + " is not a directory; pass the --out directory of a 'run' (default lab-runs)."
                + " See 'reliability-lab report --help'.\n");
  }

  @Test
  void aDirectoryWithoutRecordsIsOneLine() throws Exception {
    Path empty = Files.createDirectory(directory.resolve("empty"));
    Run run = report(empty.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.err())
        .startsWith("reliability-lab report: " + empty + " holds no run record")
        .hasLineCount(1);
  }

  record Run(int exitCode, String out, String err) {}

  private static Run report(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] arguments = new String[args.length + 1];
    arguments[0] = "report";
    System.arraycopy(args, 0, arguments, 1, args.length);
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(out),
                new PrintWriter(err),
                ReportCommandTest.class.getClassLoader())
            .execute(arguments);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
