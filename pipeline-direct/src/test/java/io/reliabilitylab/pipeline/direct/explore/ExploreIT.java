package io.reliabilitylab.pipeline.direct.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.explore.CaseFile;
import io.reliabilitylab.harness.explore.ExploreReport;
import io.reliabilitylab.harness.explore.ExploreSettings;
import io.reliabilitylab.harness.explore.ExploreSpace;
import io.reliabilitylab.harness.explore.Explorer;
import io.reliabilitylab.harness.explore.ScenarioTrials;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The explorer's jqwik property over the real direct pipeline (embedded MariaDB, Flink CDC in a
 * MiniCluster, Iceberg on disk): a handful of random workloads and fault schedules, each fault
 * proven and recovered and every check passing; then one case run again, which shows the same
 * workload digest, fault positions and verdict. The negative control (the broken job variant, found
 * and shrunk) runs from the packaged command line in the examples module.
 */
class ExploreIT {

  private static final Logger LOG = LoggerFactory.getLogger(ExploreIT.class);

  /** A fixed seed in CI, so that a red build names a case that replays; `explore` draws afresh. */
  private static final long SEED = 20_261_130L;

  private static final int TRIES = 3;

  @TempDir Path out;

  @Test
  void randomFaultSchedulesRecoverAndReconcileAndACaseReplaysTheSame() throws Exception {
    ClassLoader classLoader = getClass().getClassLoader();
    PipelineProvider direct = Discovered.pipelines(classLoader).requireNoProblems().get("direct");
    List<FaultInjector> faults = Discovered.faults(classLoader).requireNoProblems().all();
    ExploreSpace space = new ExploreSpace(faults, direct.capabilities());
    ScenarioRunner runner =
        new ScenarioRunner(
            EmbeddedMariaDb.shared(),
            out,
            Discovered.pipelines(classLoader).requireNoProblems().all(),
            Discovered.checks(classLoader).requireNoProblems().all(),
            faults,
            List.of("it", "explore"),
            Clock.systemUTC());
    Map<String, String> options = Map.of(LabOptions.CHECKPOINT_INTERVAL_MS, "1000");
    Explorer explorer =
        new Explorer(
            space,
            new ScenarioTrials(runner, space, "direct", options, Duration.ofSeconds(90)),
            "direct",
            options,
            out,
            List.of("it", "explore"));

    ExploreReport report =
        explorer.explore(new ExploreSettings(TRIES, SEED, 1, 40, Duration.ofSeconds(60), 2));

    report.tries().forEach(trial -> LOG.info("Explored: {}", trial));
    LOG.info("Coverage: {}", report.coverage());
    assertThat(report.exitCode()).as("%s", report.finding()).isEqualTo(ExitCode.PASSED);
    assertThat(report.tries()).hasSize(TRIES);
    assertThat(report.seed()).isEqualTo(Long.toString(SEED));
    assertThat(report.coverage().keySet()).containsExactlyInAnyOrderElementsOf(space.cells());
    for (ExploreReport.TrialSummary trial : report.tries()) {
      RunRecord record = RunRecordReader.read(out.resolve(trial.runId() + ".json"));
      assertThat(record.faults())
          .as("every scheduled fault of try %d fired", trial.number())
          .hasSize(trial.positions().size())
          .allSatisfy(fault -> assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED))
          .allSatisfy(fault -> assertThat(fault.recovery()).isNotNull());
      assertThat(record.scenario().workloadDigest()).isEqualTo(trial.workloadDigest());
    }

    Path firstCase;
    try (Stream<Path> files = Files.list(out)) {
      firstCase =
          files
              .filter(f -> f.getFileName().toString().endsWith("-try-1.case.json"))
              .findFirst()
              .orElseThrow();
    }
    CaseFile caseFile = Explorer.readCase(firstCase);
    Explorer.Replay replay = explorer.replay(caseFile);
    LOG.info("Replayed try 1: {}", replay.trial());
    assertThat(replay.reproduced()).as("%s vs %s", caseFile, replay.trial()).isTrue();
    assertThat(replay.trial().workloadDigest()).isEqualTo(report.tries().get(0).workloadDigest());
    assertThat(replay.trial().positions()).isEqualTo(report.tries().get(0).positions());
  }
}
