package io.reliabilitylab.junit;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.record.Summary;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Duration;

/** A run record as an assertion message shows it: the verdict, its reasons, checks and faults. */
final class RunDescription {

  private RunDescription() {}

  /** Several lines: what ran, the verdict and exit code, the reasons, each check and fault. */
  static String of(RunRecord run) {
    Summary summary = run.summary();
    ScenarioInfo scenario = run.scenario();
    StringBuilder text =
        new StringBuilder()
            .append("run ")
            .append(run.runId())
            .append(" (pipeline ")
            .append(scenario.pipeline())
            .append(", scenario ")
            .append(scenario.name())
            .append(", seed ")
            .append(scenario.seed())
            .append("): ")
            .append(summary.verdict())
            .append(", exit code ")
            .append(summary.exitCode().code());
    if (!summary.reasons().isEmpty()) {
      text.append(System.lineSeparator()).append("reasons:");
      summary.reasons().forEach(reason -> line(text, reason));
    }
    text.append(System.lineSeparator()).append("checks:");
    if (run.checks().isEmpty()) {
      line(text, "none");
    }
    run.checks().forEach(check -> line(text, of(check)));
    if (!run.faults().isEmpty()) {
      text.append(System.lineSeparator()).append("faults:");
      run.faults().forEach(fault -> line(text, of(fault)));
    }
    return text.toString();
  }

  /** {@code snapshot-diff FAILED: 2 rows missing from orders_current} */
  static String of(CheckResult check) {
    return check.check() + " " + check.verdict() + ": " + check.summary();
  }

  /**
   * {@code task-failure (srl-fault-1-task-failure) FIRED at at-checkpoint:5, recovered in 3200 ms}
   */
  static String of(FaultRecord fault) {
    FaultEvidence evidence = fault.evidence();
    StringBuilder text =
        new StringBuilder()
            .append(evidence.fault())
            .append(" (")
            .append(evidence.faultId())
            .append(") ")
            .append(evidence.status())
            .append(" at ")
            .append(fault.spec().position().text());
    if (!evidence.reason().isBlank()) {
      text.append(": ").append(evidence.reason());
    }
    RecoveryEvidence recovery = fault.recovery();
    Duration recoveryTime = fault.recoveryTime();
    if (recoveryTime != null) {
      text.append(", recovered in ").append(recoveryTime.toMillis()).append(" ms");
    } else if (recovery != null) {
      text.append(", not recovered");
    }
    Duration toFirstCommit = recovery == null ? null : recovery.timeToFirstCommit();
    if (toFirstCommit != null) {
      text.append(", first commit after ").append(toFirstCommit.toMillis()).append(" ms");
    }
    return text.toString();
  }

  private static void line(StringBuilder text, String line) {
    text.append(System.lineSeparator()).append("  - ").append(line);
  }
}
