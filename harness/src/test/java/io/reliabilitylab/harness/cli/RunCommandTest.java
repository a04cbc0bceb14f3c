package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import org.junit.jupiter.api.Test;

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
}
