package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code run}'s argument errors: each is one line on stderr with exit code 2, found before any
 * source or cluster starts. The real run is proven by {@code RunCommandIT} in pipeline-direct.
 */
class RunCommandTest {

  @Test
  void anUnknownPipelineListsTheKnownOnes() {
    ReliabilityLabTest.Run run = ReliabilityLabTest.run("valid", "run", "--pipeline", "nope");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("nope")
        .contains("Available pipelines: test-pipeline");
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "bench", "explore", "replay"})
  void anOutputDirectoryThatCannotBeCreatedIsRefusedBeforeAnythingStarts(
      String command, @TempDir Path temp) throws IOException {
    Path file = Files.writeString(temp.resolve("a-file"), "not a directory");
    for (String out :
        List.of("/proc/forbidden", file.toString(), file.resolve("below").toString())) {
      List<String> arguments = new ArrayList<>(List.of(command, "--out", out));
      if (command.equals("replay")) {
        arguments.add("7");
      } else {
        arguments.addAll(List.of("--pipeline", "test-pipeline"));
      }
      ReliabilityLabTest.Run run =
          ReliabilityLabTest.run("valid", arguments.toArray(String[]::new));
      assertThat(run.exitCode()).as(out).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
      assertThat(run.errLines())
          .as(out)
          .singleElement()
          .asString()
          .contains("--out " + out + " cannot be used: ")
          .contains("choose a directory you can write to")
          .doesNotContain("Exception:");
    }
  }

  @Test
  void aNegativeEventCountIsRefused() {
    ReliabilityLabTest.Run run = ReliabilityLabTest.run("valid", "run", "--events", "-1");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines()).singleElement().asString().contains("--events must be >= 0");
  }

  @Test
  void sourceCredentialsWithoutAUrlAreRefusedWithoutEchoingThePassword() {
    ReliabilityLabTest.Run run =
        ReliabilityLabTest.run(
            "valid",
            "run",
            "--pipeline",
            "test-pipeline",
            "--source-user",
            "lab",
            "--source-password=s3cr3t-value",
            "--events",
            "10");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("need --source-jdbc-url")
        .doesNotContain("s3cr3t-value");
  }

  @Test
  void aDurationThatDoesNotParseSaysHowToWriteOne() {
    ReliabilityLabTest.Run run =
        ReliabilityLabTest.run("valid", "run", "--checkpoint-interval", "soon");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines()).singleElement().asString().contains("500ms, 1s, 2m");
  }

  @Test
  void anUnknownSourceNamesTheOnesTheLabStarts() {
    ReliabilityLabTest.Run run =
        ReliabilityLabTest.run("valid", "run", "--pipeline", "test-pipeline", "--source", "oracle");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("'oracle' is not a source the lab starts: use mariadb or postgres");
  }

  @Test
  void aSourceThatContradictsTheUrlIsRefusedBeforeAnythingStarts() {
    ReliabilityLabTest.Run run =
        ReliabilityLabTest.run(
            "valid",
            "run",
            "--pipeline",
            "test-pipeline",
            "--source",
            "postgres",
            "--source-jdbc-url",
            "jdbc:mysql://127.0.0.1:1/lab",
            "--source-user",
            "lab",
            "--events",
            "10");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("--source postgres does not match --source-jdbc-url jdbc:mysql://127.0.0.1:1/lab")
        .contains("the URL names the engine");
  }
}
