package io.reliabilitylab.harness.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The explorer's own logic, with a stand-in for the pipeline that fails exactly when the workload
 * deletes a row: jqwik is really launched, draws, shrinks and reports. The real pipeline's
 * exploration has its integration tests (ExploreIT, the packaged command line's).
 */
class ExplorerTest {

  private static final ExploreSpace SPACE =
      new ExploreSpace(Discovered.faults(ExplorerTest.class.getClassLoader()).all(), Set.of());

  @TempDir Path out;

  @Test
  void passingPipelineRunsEveryTryAndCountsCoverage() throws Exception {
    ExploreReport report = explorer(exploreCase -> false).explore(settings(5, 7L, 20));

    assertThat(report.exitCode()).isEqualTo(ExitCode.PASSED);
    assertThat(report.tries()).hasSize(5).allMatch(t -> t.phase() == Trial.Phase.GENERATED);
    assertThat(report.finding()).isNull();
    assertThat(report.seed()).isEqualTo("7");
    assertThat(report.coverage().keySet()).containsExactlyInAnyOrderElementsOf(SPACE.cells());
    int scheduled = report.tries().stream().mapToInt(t -> t.schedule().split(", ").length).sum();
    assertThat(report.coverage().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(scheduled);
    assertThat(Files.list(out).map(p -> p.getFileName().toString()))
        .anyMatch(name -> name.startsWith("explore-") && name.endsWith("-try-5.case.json"));
  }

  @Test
  void theSameSeedDrawsTheSameCases() throws Exception {
    ExploreReport first = explorer(exploreCase -> false).explore(settings(4, 99L, 40));
    ExploreReport second = explorer(exploreCase -> false).explore(settings(4, 99L, 40));

    assertThat(second.tries())
        .extracting(ExploreReport.TrialSummary::workloadDigest)
        .containsExactlyElementsOf(
            first.tries().stream().map(ExploreReport.TrialSummary::workloadDigest).toList());
    assertThat(second.tries())
        .extracting(ExploreReport.TrialSummary::schedule)
        .containsExactlyElementsOf(
            first.tries().stream().map(ExploreReport.TrialSummary::schedule).toList());
  }

  @Test
  void aFailureIsShrunkToASmallCaseThatReplays() throws Exception {
    Explorer explorer = explorer(ExplorerTest::deletesARow);

    ExploreReport report = explorer.explore(settings(20, 3L, 60).withShrinkTries(200));

    assertThat(report.exitCode()).isEqualTo(ExitCode.FAILED);
    ExploreReport.Finding finding = report.finding();
    assertThat(finding).isNotNull();
    assertThat(finding.original().changes()).isGreaterThan(finding.minimal().changes());
    // one delete needs a row to delete; the baseline and one segment need a transaction each
    assertThat(finding.minimal().changes())
        .as("%s", finding.minimalChanges())
        .isLessThanOrEqualTo(3);
    assertThat(finding.minimal().schedule()).doesNotContain(",");
    assertThat(finding.minimal().failures()).containsExactly("snapshot-diff");
    assertThat(finding.replayCommand()).startsWith("reliability-lab replay ");

    CaseFile minimal = Explorer.readCase(Path.of(finding.caseFile()));
    Explorer.Replay replay = explorer.replay(minimal);
    assertThat(replay.reproduced()).isTrue();
    assertThat(replay.trial().workloadDigest()).isEqualTo(finding.minimal().workloadDigest());
  }

  @Test
  void shrinkingStopsAtTheCapOnTries() throws Exception {
    ExploreReport report =
        explorer(ExplorerTest::deletesARow)
            .explore(new ExploreSettings(20, 3L, 1, 60, Duration.ofSeconds(2), 2));

    assertThat(report.finding()).isNotNull();
    assertThat(report.finding().shrinkTries()).isEqualTo(2);
    assertThat(report.tries().stream().filter(t -> t.phase() == Trial.Phase.SHRINKING)).hasSize(2);
  }

  private static boolean deletesARow(ExploreCase exploreCase) {
    return exploreCase.workload().transactions().stream()
        .flatMap(t -> t.changes().stream())
        .anyMatch(change -> change instanceof SourceChange.Delete);
  }

  private static ExploreSettings settings(int tries, Long seed, int maxChanges) {
    return new ExploreSettings(tries, seed, 1, maxChanges, Duration.ofSeconds(30), 20);
  }

  private Explorer explorer(java.util.function.Predicate<ExploreCase> fails) {
    TrialRunner trials =
        (exploreCase, number, phase) -> {
          Workload workload = exploreCase.workload();
          boolean failed = fails.test(exploreCase);
          return new Trial(
              number,
              phase,
              exploreCase,
              SPACE.plannedFaults(exploreCase).stream()
                  .map(f -> f.fault() + "@" + f.position().text())
                  .toList(),
              workload.digest(),
              failed ? ExitCode.FAILED : ExitCode.PASSED,
              failed ? List.of("snapshot-diff") : List.of(),
              List.of(),
              null,
              Duration.ZERO);
        };
    return new Explorer(SPACE, trials, "test", Map.of(), out, List.of("explore"));
  }
}
