package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.ExitCode;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.harness.record.RunRecord;
import io.reliabilitylab.harness.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's run command on embedded defaults: {@code reliability-lab run --pipeline direct
 * --faults none} starts an embedded MariaDB and a MiniCluster, streams a seeded workload into
 * Iceberg, reconciles, writes a run record and exits 0.
 */
class RunCommandIT {

  @TempDir Path out;

  @Test
  void runsTheDirectPipelineOnEmbeddedDefaultsAndWritesAPassingRecord() throws Exception {
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
                "none",
                "--events",
                "1500",
                "--seed",
                "7",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    List<RunRecord> records = RunRecordReader.readDirectory(out);
    assertThat(records).hasSize(1);
    RunRecord record = records.get(0);

    assertThat(record.summary().passed()).isTrue();
    assertThat(record.checks())
        .extracting(CheckResult::check)
        .contains(
            "snapshot-diff",
            "event-id-audit",
            "changelog-completeness",
            "no-duplicate-keys",
            "current-changelog-consistency");
    assertThat(record.checks()).allSatisfy(c -> assertThat(c.verdict()).isEqualTo(Verdict.PASSED));
    assertThat(record.summary().snapshotDiffCount()).isZero();
    // Each Iceberg snapshot names the Flink job and checkpoint that committed it.
    assertThat(record.snapshots()).isNotEmpty();
    assertThat(record.snapshots())
        .filteredOn(s -> "append".equals(s.operation()) || "overwrite".equals(s.operation()))
        .allSatisfy(
            (SnapshotInfo s) -> {
              assertThat(s.flinkJobId()).isNotBlank();
              assertThat(s.committedCheckpointId()).isNotNull();
            });
    assertThat(record.sourcePosition()).isNotNull();
    // The tests run inside the lab's git checkout, so the record names its revision.
    assertThat(record.gitSha()).matches("[0-9a-f]{12}");
    assertThat(record.stackVersions()).containsKeys("flink", "flink_cdc_mysql", "iceberg");
    assertThat(record.effectiveConfiguration()).containsKey("delivery.semantics");
    assertThat(record.timings()).containsKeys("start", "workload", "catch_up", "reconcile");
    assertThat(stdout.toString()).contains("PASSED");
  }
}
