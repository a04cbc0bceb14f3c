package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab catches a broken pipeline: the direct job with its current table written in append mode
 * that drops its deletes and update-befores (variant {@code broken-current-append}) keeps rows the
 * source deleted or replaced. The suite under a fault reports every scenario FAILED, with evidence
 * naming the differing keys; the fault scenario stops after its baseline, since a fault on an
 * unclean baseline would prove nothing.
 */
class NegativeControlIT {

  @TempDir Path out;

  @Test
  void aCurrentTableThatLosesDeletesIsReportedFailedNamingTheKeys() throws Exception {
    StringWriter stdout = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout),
                new PrintWriter(new StringWriter()),
                getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--faults",
                "task-exception:default",
                "--pipeline-option",
                "job.variant=broken-current-append",
                "--events",
                "600",
                "--seed",
                "5",
                "--out",
                out.toString());

    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    Map<String, RunRecord> runs =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));

    RunRecord baseline = runs.get("baseline");
    assertThat(baseline.effectiveConfiguration())
        .containsEntry("job.variant", "broken-current-append");
    assertThat(baseline.summary().verdict()).isEqualTo(Verdict.FAILED);
    // Iceberg's writer folds repeated keys inside one checkpoint, so what survives are the rows the
    // dropped deletes and update-befores should have removed: stale and extra rows.
    CheckResult diff = check(baseline, "snapshot-diff");
    assertThat(diff.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(diff.evidence().count("diff_count")).isPositive();
    assertThat(diff.evidence().samples()).as("samples naming the differing keys").isNotEmpty();
    assertThat(baseline.summary().snapshotDiffCount()).isPositive();

    RunRecord faulted = runs.get("task-exception");
    assertThat(faulted.summary().verdict()).isEqualTo(Verdict.FAILED);
    assertThat(faulted.summary().failedChecks()).contains("baseline:snapshot-diff");
    assertThat(faulted.summary().error()).contains("baseline did not reconcile clean");
  }

  private static CheckResult check(RunRecord run, String name) {
    List<CheckResult> found = run.checks().stream().filter(c -> c.check().equals(name)).toList();
    assertThat(found).as("check %s in %s", name, run.checks()).hasSize(1);
    return found.get(0);
  }
}
