package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.bench.BenchConfig;
import io.reliabilitylab.harness.cli.ReliabilityLabTest.Run;
import io.reliabilitylab.record.ExitCode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The bench command's arguments; the bench itself runs in pipeline-direct's BenchCommandIT. */
class BenchCommandTest {

  private static final int USAGE = ExitCode.USAGE_OR_ENVIRONMENT.code();

  @Test
  void helpNamesEveryFigureAndOption() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("Usage: reliability-lab bench")
        .contains("--pipeline", "--events", "--seed", "--initial-rows", "--mode", "--sustain")
        .contains("--rate", "--out", "--source-jdbc-url", "--checkpoint-interval")
        .contains("JSON");
  }

  @Test
  void anUnknownModeIsAUsageError() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--mode", "fast");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("reliability-lab bench: --mode must be single, batched or both, got 'fast'.");
  }

  @Test
  void sustainNeedsARate() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--sustain", "5m");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("--sustain and --rate go together");
  }

  @Test
  void aRateMustBePositive() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--sustain", "10s", "--rate", "0");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("--rate must be a positive number");
  }

  @Test
  void eventsMustBePositive() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--events", "0");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("--events must be at least 1, got 0.");
  }

  @Test
  void anUnknownPipelineNamesTheAvailableOnes() {
    Run run = ReliabilityLabTest.run("valid", "bench", "--pipeline", "nope", "--events", "10");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("nope");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void theDefaultSizesAreAtScaleAndQuickShrinksOnlyWhatWasNotGiven() {
    BenchCommand atScale = new BenchCommand(getClass().getClassLoader());
    new CommandLine(atScale).parseArgs();
    BenchCommand quick = new BenchCommand(getClass().getClassLoader());
    new CommandLine(quick).parseArgs("--quick", "--initial-rows", "777");

    BenchConfig full = atScale.config();
    BenchConfig small = quick.config();

    assertThat(full.batchedEvents()).isEqualTo(1_000_000);
    assertThat(full.initialRows()).isEqualTo(1_000_000);
    assertThat(small.batchedEvents()).isEqualTo(20_000);
    assertThat(small.initialRows()).isEqualTo(777);
    assertThat(small.changesPerCommit()).isEqualTo(500);
  }

  @Test
  void theComparedCatalogReplacesTheBenchsOwnAndKeepsEveryOtherOption() {
    BenchCommand command = new BenchCommand(getClass().getClassLoader());
    new CommandLine(command)
        .parseArgs(
            "--quick",
            "--sink-catalog",
            "rest=http://catalog.internal:8181",
            "--pipeline-option",
            "sink.catalog.property.warehouse=analytics",
            "--pipeline-option",
            "job.variant=faithful",
            "--compare-sink-catalog",
            "embedded-rest");
    BenchConfig config = command.config();

    assertThat(BenchCommand.catalogOf(config.pipelineOptions())).isEqualTo("rest");
    assertThat(command.comparedOptions(config))
        .containsEntry("sink.catalog", "embedded-rest")
        .containsEntry("job.variant", "faithful")
        .doesNotContainKeys("sink.catalog.uri", "sink.catalog.property.warehouse");
    assertThat(BenchCommand.catalogOf(java.util.Map.of())).isEqualTo("hadoop");
  }
}
