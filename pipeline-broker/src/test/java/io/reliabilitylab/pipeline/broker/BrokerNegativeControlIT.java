package io.reliabilitylab.pipeline.broker;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linkage check's negative control on the real pipeline: a Kafka source that never commits its
 * offsets leaves them unconsumed as far as the group shows, while the tables are complete. Only the
 * linkage check may fail, naming the lag.
 */
class BrokerNegativeControlIT {

  @TempDir Path out;

  @Test
  void offsetsLeftUnconsumedFailTheLinkageCheckAndNothingElse() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "broker",
                "--faults",
                "none",
                "--events",
                "300",
                "--seed",
                "5",
                "--pipeline-option",
                BrokerPipelineProvider.COMMIT_OFFSETS + "=false",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.FAILED.code());
    List<RunRecord> records = RunRecordReader.readDirectory(out);
    assertThat(records).hasSize(1);
    RunRecord run = records.get(0);
    assertThat(run.effectiveConfiguration()).containsKey("kafka.source");
    assertThat(run.effectiveConfiguration().get("kafka.source")).contains("NOT committed");
    assertThat(run.checks())
        .filteredOn(check -> check.verdict() != Verdict.PASSED)
        .extracting(CheckResult::check)
        .containsExactly("offset-checkpoint-snapshot-linkage");
    CheckResult linkage =
        run.checks().stream()
            .filter(check -> check.check().equals("offset-checkpoint-snapshot-linkage"))
            .findFirst()
            .orElseThrow();
    assertThat(linkage.evidence().count("total_final_lag")).isPositive();
    assertThat(run.summary().snapshotDiffCount()).isZero();
  }
}
