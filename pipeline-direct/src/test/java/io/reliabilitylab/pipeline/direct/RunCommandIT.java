package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.direct.faults.VariantEvidence;
import io.reliabilitylab.record.ExerciseRecord;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceProcessControl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's run command on embedded defaults: {@code reliability-lab run --pipeline direct
 * --faults all --scenarios all} runs a baseline, each fault variant and each exercise as its own
 * scenario on one embedded MariaDB, writes one record per scenario and a suite summary, and exits
 * 0: every fault proven to have fired and recovered, every check passed (or, for a variant built on
 * an open upstream bug, failed as that known hazard), each variant's own evidence recorded ({@link
 * VariantEvidence}), pressure and compaction measured, and a screenful printed.
 */
class RunCommandIT {

  @TempDir Path out;

  @Test
  void theWholeSuiteRunsOnEmbeddedDefaultsAndPasses() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--faults",
                "all",
                "--scenarios",
                "all",
                "--events",
                "1000",
                "--seed",
                "7",
                "--out",
                out.toString());

    // An open upstream bug does not fire on every run: a known hazard that did not reproduce makes
    // the suite inconclusive (3), which is the one non-zero exit this test tolerates.
    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isIn(ExitCode.PASSED.code(), ExitCode.INCONCLUSIVE.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    List<String> expected = new ArrayList<>();
    expected.add("baseline");
    // `--faults all` picks the faults the direct pipeline can take (no broker faults), and those
    // the lab's embedded MariaDB can host (a crash of its process)
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(new DirectPipelineProvider().capabilities());
    offered.add(SourceProcessControl.class);
    FaultSelection.parse(
            "all",
            Discovered.faults(getClass().getClassLoader()).requireNoProblems().all(),
            offered)
        .forEach(choice -> expected.add(choice.scenarioName()));
    expected.addAll(List.of("pressure", "compaction"));
    assertThat(byScenario.keySet()).containsExactlyInAnyOrderElementsOf(expected);

    SuiteSummary suite;
    try (Stream<Path> files = Files.list(out)) {
      Path file =
          files
              .filter(p -> p.getFileName().toString().startsWith("suite-"))
              .findFirst()
              .orElseThrow();
      suite = RunRecordReader.readSuite(file);
    }
    assertThat(suite.runs()).hasSize(expected.size());
    assertThat(suite.exitCode().code()).isEqualTo(exit);
    assertThat(suite.runs())
        .filteredOn(entry -> entry.exitCode() != ExitCode.PASSED)
        .allSatisfy(
            entry ->
                assertThat(entry.outcome())
                    .as(entry.scenario())
                    .isIn(
                        SuiteSummary.Entry.KNOWN_HAZARD_DETECTED,
                        SuiteSummary.Entry.KNOWN_HAZARD_NOT_REPRODUCED));

    RunRecord baseline = byScenario.get("baseline");
    assertThat(baseline.summary().passed()).isTrue();
    assertThat(baseline.checks())
        .extracting(CheckResult::check)
        .contains(
            "snapshot-diff",
            "event-id-audit",
            "changelog-completeness",
            "no-duplicate-keys",
            "current-changelog-consistency");
    assertThat(baseline.snapshots())
        .filteredOn(s -> "append".equals(s.operation()) || "overwrite".equals(s.operation()))
        .allSatisfy(
            (SnapshotInfo s) -> {
              assertThat(s.flinkJobId()).isNotBlank();
              assertThat(s.committedCheckpointId()).isNotNull();
            });
    assertThat(baseline.gitSha()).matches("[0-9a-f]{12}");
    assertThat(baseline.stackVersions()).containsKeys("flink", "flink_cdc_mysql", "iceberg");

    for (RunRecord run : byScenario.values()) {
      if (run.faults().isEmpty()) {
        continue;
      }
      String scenario = run.scenario().name();
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery()).as(scenario).isNotNull();
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
        assertThat(fault.recovery().firstCommitAt()).as(scenario).isNotNull();
      }
      if (run.scenario().knownHazard() == null) {
        assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
        assertThat(run.summary().snapshotDiffCount()).as(scenario).isZero();
      } else {
        // A known hazard is detected when the checks fail on it, and may not reproduce.
        assertThat(run.summary().verdict()).as(scenario).isIn(Verdict.FAILED, Verdict.PASSED);
      }
    }

    VariantEvidence.assertEachVariantsOwnEvidence(byScenario);
    VariantEvidence.assertNetworkEvidence(byScenario);
    VariantEvidence.assertSourceCrashEvidence(byScenario);

    RunRecord pressure = byScenario.get("pressure");
    assertThat(pressure.summary().passed()).as("%s", pressure.summary().reasons()).isTrue();
    ExerciseRecord pressureFigures = exercise(pressure, "pressure");
    assertThat(pressureFigures.figures().get("max_lag_events")).isPositive();
    assertThat(pressureFigures.figures())
        .containsKeys(
            "checkpoint_max_ms_baseline",
            "checkpoint_max_ms_pressure",
            "alignment_max_ms_pressure",
            "failed_checkpoints",
            "drain_ms");
    assertThat(pressureFigures.series()).isNotEmpty();

    RunRecord compaction = byScenario.get("compaction");
    assertThat(compaction.summary().passed()).as("%s", compaction.summary().reasons()).isTrue();
    for (String name : List.of("compaction:streaming", "compaction:after-stop")) {
      assertThat(exercise(compaction, name).figures())
          .containsKeys("data_files_before", "data_files_after", "delete_files_before");
    }
    assertThat(stdout.toString()).contains("PASSED");
    // a screenful: one line per scenario, the suite's verdict, records and dashboard
    assertThat(stdout.toString().lines().filter(line -> line.matches("\\[ ?\\d+/\\d+] .*")))
        .hasSize(expected.size());
    // (a known hazard that did not reproduce adds its indented reasons)
    assertThat(stdout.toString().lines().filter(line -> !line.startsWith(" ")).count())
        .isLessThanOrEqualTo(expected.size() + 6L);
    assertThat(stdout.toString()).doesNotContain("WARN", "ERROR", "Exception");

    // the dashboard of this --faults all run, written next to the records
    Path dashboard = out.resolve("report.html");
    assertThat(stdout.toString()).contains("Dashboard: " + dashboard);
    String page = Files.readString(dashboard);
    for (RunRecord record : RunRecordReader.readDirectory(out)) {
      assertThat(page)
          .as("the dashboard shows run %s", record.runId())
          .contains("data-run=\"" + record.runId() + "\"");
    }
    assertThat(page).contains("suite-" + suite.suiteId()).doesNotContain("<script src", "<link ");
  }

  private static ExerciseRecord exercise(RunRecord run, String name) {
    return run.exercises().stream()
        .filter(e -> e.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no exercise " + name + " in " + run.exercises()));
  }
}
