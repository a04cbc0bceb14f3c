package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.PluginOrigin;
import io.reliabilitylab.runner.discovery.testplugins.ScenarioClassLoader;
import io.reliabilitylab.runner.discovery.testplugins.TestChecks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReliabilityLabTest {

  private static final int USAGE = ExitCode.USAGE_OR_ENVIRONMENT.code();

  /** One run of the command line: its exit code and what it wrote. */
  record Run(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Run run(String scenario, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(out), new PrintWriter(err), ScenarioClassLoader.of(scenario))
            .execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  @Nested
  class Help {

    @Test
    void saysWhatTheLabIsItsCommandsAndItsExitCodes() {
      Run run = run("valid", "--help");
      assertThat(run.exitCode()).isZero();
      assertThat(run.err()).isEmpty();
      assertThat(run.out())
          .contains("Usage: reliability-lab")
          .contains("proves, with evidence, that")
          .contains("Options:")
          .contains("Commands:")
          .containsPattern(
              "(?m)^\\s+list\\s+Lists every discovered pipeline, fault and check, one line each\\.$")
          .contains("Exit codes:")
          .containsPattern("(?m)^\\s+0\\s+passed")
          .containsPattern("(?m)^\\s+1\\s+failed: a check failed, or a fault could not be proven")
          .containsPattern("(?m)^\\s+2\\s+usage or environment error")
          .containsPattern("(?m)^\\s+3\\s+inconclusive")
          .contains("--version");
    }

    @Test
    void listHasItsOwnHelp() {
      Run run = run("valid", "list", "--help");
      assertThat(run.exitCode()).isZero();
      assertThat(run.out()).contains("Usage: reliability-lab list").contains("--json");
    }

    @Test
    void versionNamesTheLabAndTheJava() {
      Run run = run("valid", "--version");
      assertThat(run.exitCode()).isZero();
      assertThat(run.out())
          .startsWith("reliability-lab ")
          .contains("Java " + System.getProperty("java.version"));
    }
  }

  @Nested
  class UsageErrors {

    @Test
    void anUnknownCommandIsOneLineAndExitCode2() {
      Run run = run("valid", "lits");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.out()).isEmpty();
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .isEqualTo(
              "reliability-lab: unknown command 'lits'; the commands are: bench, list, reconcile,"
                  + " run, explore, replay, report. Did you mean 'list'?"
                  + " See 'reliability-lab --help'.");
    }

    @Test
    void anUnknownOptionIsOneLine() {
      Run run = run("valid", "--bogus");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith("reliability-lab: unknown option '--bogus'.")
          .endsWith("See 'reliability-lab --help'.");
    }

    @Test
    void anUnknownSubcommandOptionNamesTheSubcommand() {
      Run run = run("valid", "list", "--jsn");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.out()).isEmpty();
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith("reliability-lab list: unknown option '--jsn'.")
          .contains("Did you mean '--json'?")
          .endsWith("See 'reliability-lab list --help'.");
    }

    @Test
    void anExtraArgumentIsOneLine() {
      Run run = run("valid", "list", "everything");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .isEqualTo(
              "reliability-lab list: unexpected argument 'everything'. See 'reliability-lab list"
                  + " --help'.");
    }

    @Test
    void replayOfNeitherAFileNorASeedSaysWhatItTakes() {
      Run run = run("valid", "replay", "no-such-case.json");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith(
              "reliability-lab replay: 'no-such-case.json' is neither a case file nor a seed")
          .contains("explore-<id>-minimal.case.json");
    }

    @Test
    void replayOfBadInputLeavesNoOutputDirectoryBehind(@TempDir Path directory) {
      Path out = directory.resolve("never-made");

      Run notASeed = run("valid", "replay", "--out", out.toString(), "seven");
      Run zeroTries = run("valid", "replay", "--out", out.toString(), "--tries", "0", "7");

      assertThat(notASeed.exitCode()).isEqualTo(USAGE);
      assertThat(zeroTries.exitCode()).isEqualTo(USAGE);
      assertThat(zeroTries.errLines()).singleElement().asString().contains("tries");
      assertThat(out).doesNotExist();
    }

    @Test
    void replayOfAFileThatIsNoCaseSaysSo(@TempDir Path directory) throws Exception {
      Path notACase = Files.writeString(directory.resolve("record.json"), "{\"format\": \"x\"}");
      Run run = run("valid", "replay", notACase.toString());
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith("reliability-lab replay: " + notACase + " is not a valid CaseFile");
    }

    @Test
    void exploreRefusesZeroTries() {
      Run run = run("valid", "explore", "--tries", "0");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith("reliability-lab explore: --tries must be >= 1, got 0.");
    }

    @Test
    void noCommandIsOneLine() {
      Run run = run("valid");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.out()).isEmpty();
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .isEqualTo(
              "reliability-lab: no command given; the commands are: bench, list, reconcile, run,"
                  + " explore, replay, report. See 'reliability-lab --help'.");
    }

    @Test
    void anUnexpectedExceptionIsOneLineWithItsCause() {
      Run run = run("throwing-fault", "list");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.errLines())
          .singleElement()
          .asString()
          .startsWith("reliability-lab list: unexpected error: java.lang.IllegalStateException:")
          .contains("capabilities unavailable")
          .contains("caused by java.io.IOException: disk full")
          .doesNotContain("\tat ");
    }
  }

  @Nested
  class ListCommandOutput {

    @Test
    void printsEachGroupSortedOneLineEachWithItsOrigin() {
      Run run = run("valid", "list");
      assertThat(run.exitCode()).isZero();
      assertThat(run.err()).isEmpty();
      // The test plugins are on the test class path: built-in, from runner's test jar or classes.
      String origin = "  [" + PluginOrigin.of(TestChecks.Alpha.class).text() + "]";
      assertThat(origin).startsWith("  [built-in ");
      assertThat(run.out().lines())
          .containsExactly(
              "Pipelines (1):",
              "  test-pipeline  A pipeline that is never started." + origin,
              "",
              "Faults (1):",
              "  test-fault  Pretends to stop a TaskManager.  (requires: JobControl,"
                  + " TaskManagerControl)  (fires at: now)"
                  + origin,
              "",
              "Checks (2):",
              "  alpha  The first check, alphabetically." + origin,
              "  beta   The second check, alphabetically." + origin);
    }

    @Test
    void saysNoneFoundForEmptyGroups() {
      Run run = run("empty", "list");
      assertThat(run.exitCode()).isZero();
      assertThat(run.out().lines())
          .containsExactly(
              "Pipelines: none found", "", "Faults: none found", "", "Checks: none found");
    }

    @Test
    void printsTheSameAsJson() throws Exception {
      Run run = run("valid", "list", "--json");
      assertThat(run.exitCode()).isZero();
      JsonNode json = new ObjectMapper().readTree(run.out());
      assertThat(json.path("pipelines").get(0).path("name").asText()).isEqualTo("test-pipeline");
      assertThat(json.path("pipelines").get(0).has("required_capabilities")).isFalse();
      JsonNode fault = json.path("faults").get(0);
      assertThat(fault.path("name").asText()).isEqualTo("test-fault");
      assertThat(fault.path("description").asText()).isEqualTo("Pretends to stop a TaskManager.");
      assertThat(fault.path("required_capabilities").toString())
          .isEqualTo("[\"JobControl\",\"TaskManagerControl\"]");
      assertThat(fault.path("positions").toString()).isEqualTo("[\"now\"]");
      assertThat(json.path("checks").get(0).has("positions")).isFalse();
      assertThat(json.path("checks").findValuesAsText("name")).containsExactly("alpha", "beta");
      assertThat(json.path("checks").get(1).path("description").asText())
          .isEqualTo("The second check, alphabetically.");
      assertThat(json.path("checks").get(0).path("class").asText())
          .isEqualTo(TestChecks.Alpha.class.getName());
      assertThat(json.path("checks").get(0).path("origin").asText()).isEqualTo("built-in");
      assertThat(json.path("checks").get(0).path("location").asText())
          .isEqualTo(PluginOrigin.of(TestChecks.Alpha.class).location());
      assertThat(json.path("plugin_jars").isEmpty()).isTrue();
      assertThat(json.path("problems").isEmpty()).isTrue();
    }

    @Test
    void jsonOfNothingHasEmptyGroups() throws Exception {
      Run run = run("empty", "list", "--json");
      JsonNode json = new ObjectMapper().readTree(run.out());
      assertThat(json.path("pipelines").isArray()).isTrue();
      assertThat(json.path("pipelines").isEmpty()).isTrue();
      assertThat(json.path("faults").isEmpty()).isTrue();
      assertThat(json.path("checks").isEmpty()).isTrue();
    }

    @Test
    void listsWhatWorksReportsBrokenPluginsAndExits2() {
      Run run = run("broken", "list");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      assertThat(run.out()).contains("  alpha  The first check, alphabetically.");
      assertThat(run.errLines())
          .first()
          .isEqualTo("reliability-lab list: 4 problem(s) with the plugins:");
      assertThat(run.err())
          .contains(TestChecks.Exploding.class.getName())
          .contains("com.example.MissingCheck")
          .doesNotContain("\tat ");
    }

    @Test
    void reportsDuplicatesInJsonAndExits2() throws Exception {
      Run run = run("duplicate", "list", "--json");
      assertThat(run.exitCode()).isEqualTo(USAGE);
      JsonNode problem = new ObjectMapper().readTree(run.out()).path("problems").get(0);
      assertThat(problem.path("kind").asText()).isEqualTo("check");
      assertThat(problem.path("reason").asText()).isEqualTo("duplicate_name");
      assertThat(problem.path("message").asText())
          .contains(TestChecks.TwinA.class.getName())
          .contains(TestChecks.TwinB.class.getName());
    }
  }
}
