package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.ExitCode;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.harness.record.RunRecord;
import io.reliabilitylab.harness.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
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
 * The lab catches a broken pipeline: the direct job with a changelog writer that commits to Iceberg
 * eagerly, outside Flink's checkpoints (variant {@code broken-eager-changelog}), passes its clean
 * baseline, but after a checkpoint fails in its synchronous part the job restarts, the source
 * replays from the last completed checkpoint and the writer appends those events again. The run
 * fails, and the event-ID audit names the duplicated events.
 */
class NegativeControlIT {

  @TempDir Path out;

  @Test
  void aChangelogThatReEmitsTheRestoredEpochIsReportedFailedNamingTheDuplicates() throws Exception {
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
                "checkpoint-failure:restart-sync",
                "--pipeline-option",
                "job.variant=broken-eager-changelog",
                "--events",
                "1000",
                "--seed",
                "5",
                "--out",
                out.toString());

    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    Map<String, RunRecord> runs =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    // Without a fault the broken writer looks faithful: that is why faults are needed.
    assertThat(runs.get("baseline").summary().passed())
        .as("baseline: %s", runs.get("baseline").summary().reasons())
        .isTrue();

    RunRecord faulted = runs.get("checkpoint-failure:restart-sync");
    assertThat(faulted.effectiveConfiguration())
        .containsEntry("job.variant", "broken-eager-changelog");
    assertThat(faulted.faults().get(0).evidence().status()).isEqualTo(FaultStatus.FIRED);
    assertThat(faulted.checks())
        .filteredOn(c -> c.check().startsWith("baseline:"))
        .allSatisfy(c -> assertThat(c.verdict()).isEqualTo(Verdict.PASSED));
    CheckResult audit = check(faulted, "event-id-audit");
    assertThat(audit.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(audit.evidence().count("changelog_duplicate_identity_count")).isPositive();
    assertThat(audit.evidence().samples())
        .as("samples naming the duplicated events")
        .anySatisfy(sample -> assertThat(sample.kind()).contains("duplicate"));
    assertThat(faulted.summary().verdict()).isEqualTo(Verdict.FAILED);
    assertThat(faulted.summary().failedChecks()).contains("event-id-audit");
  }

  private static CheckResult check(RunRecord run, String name) {
    List<CheckResult> found = run.checks().stream().filter(c -> c.check().equals(name)).toList();
    assertThat(found).as("check %s in %s", name, run.checks()).hasSize(1);
    return found.get(0);
  }
}
