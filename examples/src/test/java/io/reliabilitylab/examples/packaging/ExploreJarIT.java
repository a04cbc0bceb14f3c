package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.examples.packaging.PackagedLab.Outcome;
import io.reliabilitylab.harness.explore.ExploreReport;
import io.reliabilitylab.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The explorer's negative control, from the packaged command line: against the deliberately broken
 * direct job (its current table appended to, deletes and update-befores dropped), {@code explore}
 * finds a failing case within a handful of tries and shrinks it to a small one; {@code replay} of
 * the minimal case file shows the same verdict.
 */
class ExploreJarIT {

  private static final Logger LOG = LoggerFactory.getLogger(ExploreJarIT.class);

  @TempDir Path workingDirectory;

  @Test
  void exploreFindsAndShrinksTheBrokenJobAndReplayReproducesTheMinimalCase() throws Exception {
    Outcome explore =
        PackagedLab.run(
            Duration.ofMinutes(10),
            PackagedLab.currentJava(),
            workingDirectory,
            "explore",
            "--pipeline",
            "direct",
            "--pipeline-option",
            "job.variant=broken-current-append",
            "--tries",
            "3",
            "--seed",
            "7",
            "--max-changes",
            "30",
            "--shrink-tries",
            "6",
            "--shrink-time",
            "5m",
            "--out",
            "runs");
    LOG.info("explore printed:\n{}", explore.out());

    assertThat(explore.exitCode()).as(explore.err()).isEqualTo(1);
    assertThat(explore.out()).contains("FAILED at try", "Replay: reliability-lab replay ");
    assertThat(explore.out()).as("the lab's own lines only").doesNotContain("WARN", "Exception");
    assertThat(explore.err()).contains("Log: ");
    ExploreReport report = report(workingDirectory.resolve("runs"));
    ExploreReport.Finding finding = report.finding();
    assertThat(finding).isNotNull();
    assertThat(finding.original().number()).isLessThanOrEqualTo(3);
    assertThat(finding.shrinkTries()).isBetween(1, 6);
    assertThat(finding.minimal().changes()).isLessThan(finding.original().changes());
    assertThat(finding.minimal().failures()).isNotEmpty();
    assertThat(finding.failingChecks()).isNotEmpty();
    assertThat(report.coverage()).isNotEmpty();
    LOG.info(
        "Negative control: found at try {} ({} changes, {}), shrunk in {} tries to {} changes in"
            + " {} transactions, faults {}: {}",
        finding.original().number(),
        finding.original().changes(),
        finding.original().schedule(),
        finding.shrinkTries(),
        finding.minimal().changes(),
        finding.minimal().transactions(),
        finding.minimal().schedule(),
        finding.minimal().failures());

    Outcome replay =
        PackagedLab.run(
            Duration.ofMinutes(3),
            PackagedLab.currentJava(),
            workingDirectory,
            "replay",
            finding.caseFile(),
            "--out",
            "replayed");
    LOG.info("replay printed:\n{}", replay.out());

    assertThat(replay.exitCode()).as(replay.err()).isEqualTo(1);
    assertThat(replay.out()).contains("REPRODUCED");
    assertThat(replay.out()).as("the lab's own lines only").doesNotContain("WARN", "Exception");
  }

  private static ExploreReport report(Path runs) throws Exception {
    try (Stream<Path> files = Files.list(runs)) {
      Path report =
          files
              .filter(f -> f.getFileName().toString().matches("explore-[^-]+-[^-]+\\.json"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no explore report in " + runs));
      return RunRecordReader.readDocument(report, ExploreReport.class);
    }
  }
}
