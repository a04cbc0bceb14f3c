package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.ExitCode;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.harness.record.FaultRecord;
import io.reliabilitylab.harness.record.RunRecord;
import io.reliabilitylab.harness.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real fault cycles through the direct pipeline: an operator exception and a failed Iceberg commit
 * are injected after a clean baseline while the workload keeps writing; each is proven to have
 * fired (its id in the job's exception history, one restart), the job recovers (running, a
 * checkpoint and a commit after the fault) and every check passes on the final state.
 */
class FaultScenarioIT {

  @TempDir Path out;

  @Test
  void anOperatorExceptionAndAFailedCommitAreProvenRecoveredAndReconciled() throws Exception {
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
                "task-exception,sink-commit-failure",
                "--events",
                "800",
                "--seed",
                "11",
                "--out",
                out.toString());

    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.PASSED.code());
    List<RunRecord> records = RunRecordReader.readDirectory(out);
    try (var files = java.nio.file.Files.list(out)) {
      Path suiteFile =
          files
              .filter(f -> f.getFileName().toString().startsWith("suite-"))
              .findFirst()
              .orElseThrow();
      assertThat(RunRecordReader.readSuite(suiteFile).runs()).hasSize(3);
    }
    assertThat(records)
        .extracting(r -> r.scenario().name())
        .containsExactly("baseline", "task-exception", "sink-commit-failure");
    for (RunRecord record : records.subList(1, 3)) {
      FaultRecord fault = record.faults().get(0);
      assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED);
      assertThat(fault.evidence().proofs()).isNotEmpty();
      assertThat(fault.recovery()).isNotNull();
      assertThat(fault.recovery().recovered()).isTrue();
      assertThat(fault.recoveryTime()).isNotNull();
      assertThat(record.checks())
          .extracting(CheckResult::check)
          .contains("baseline:snapshot-diff", "snapshot-diff", "changelog-completeness");
      assertThat(record.checks())
          .allSatisfy(c -> assertThat(c.verdict()).isEqualTo(Verdict.PASSED));
    }
  }
}
