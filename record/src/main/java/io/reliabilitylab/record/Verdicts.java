package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.secret.Redactor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Computes a run's verdict and exit code from its check results and fault evidence.
 *
 * <ol>
 *   <li>a fault not proven to have fired ({@code NOT_PROVEN}, or still {@code ARMED} at the end)
 *       fails the run: a scenario whose fault never happened proves nothing;
 *   <li>any failed check fails the run;
 *   <li>otherwise any inconclusive check makes it inconclusive — and so does a run with no checks
 *       at all, since nothing was shown, and a run with a skipped fault (the pipeline lacks a
 *       capability or fault point): the scenario it planned did not happen, so it never reads as
 *       passed;
 *   <li>otherwise it passed.
 * </ol>
 *
 * Skipped faults are counted and named in the summary with their reasons. A run stopped by a usage
 * or environment error exits with {@link ExitCode#USAGE_OR_ENVIRONMENT} unless a check had already
 * failed.
 */
@API(status = STABLE)
public final class Verdicts {

  private Verdicts() {}

  /** The overall verdict; see the class comment for the rules. */
  public static Verdict verdict(List<CheckResult> checks, List<FaultEvidence> faults) {
    return summarize(checks, faults, 0, 0).verdict();
  }

  /** The exit code for a completed run. */
  public static ExitCode exitCode(List<CheckResult> checks, List<FaultEvidence> faults) {
    return summarize(checks, faults, 0, 0).exitCode();
  }

  /** The summary of a completed run. */
  public static Summary summarize(
      List<CheckResult> checks,
      List<FaultEvidence> faults,
      long snapshotDiffCount,
      long dlqRecordCount) {
    return summarize(checks, faults, snapshotDiffCount, dlqRecordCount, null);
  }

  /**
   * The summary of a run stopped by a usage or environment error (a database that went away, a
   * missing file): exit code 2 unless the evidence gathered so far already fails the run.
   */
  public static Summary aborted(
      String error,
      List<CheckResult> checks,
      List<FaultEvidence> faults,
      long snapshotDiffCount,
      long dlqRecordCount) {
    Objects.requireNonNull(error, "error");
    return summarize(checks, faults, snapshotDiffCount, dlqRecordCount, Redactor.redact(error));
  }

  private static Summary summarize(
      List<CheckResult> checks,
      List<FaultEvidence> faults,
      long snapshotDiffCount,
      long dlqRecordCount,
      @Nullable String error) {
    Objects.requireNonNull(checks, "checks");
    Objects.requireNonNull(faults, "faults");
    List<String> reasons = new ArrayList<>();
    List<String> failedChecks = new ArrayList<>();
    List<String> inconclusiveChecks = new ArrayList<>();
    List<String> notProvenFaults = new ArrayList<>();
    List<String> skippedFaults = new ArrayList<>();
    int passedChecks = 0;
    int firedFaults = 0;

    for (FaultEvidence fault : faults) {
      switch (fault.status()) {
        case FIRED -> firedFaults++;
        case SKIPPED -> {
          skippedFaults.add(fault.faultId() + " (" + fault.fault() + "): " + fault.reason());
          reasons.add(
              "fault "
                  + fault.faultId()
                  + " ("
                  + fault.fault()
                  + ") was skipped, so the scenario did not happen: "
                  + fault.reason());
        }
        case NOT_PROVEN, ARMED -> {
          notProvenFaults.add(fault.faultId());
          reasons.add(
              "fault "
                  + fault.faultId()
                  + " ("
                  + fault.fault()
                  + ") was not proven to have fired"
                  + (fault.reason().isBlank() ? "" : ": " + fault.reason()));
        }
      }
    }
    for (CheckResult check : checks) {
      switch (check.verdict()) {
        case PASSED -> passedChecks++;
        case FAILED -> {
          failedChecks.add(check.check());
          reasons.add("check " + check.check() + " failed: " + check.summary());
        }
        case INCONCLUSIVE -> {
          inconclusiveChecks.add(check.check());
          reasons.add("check " + check.check() + " was inconclusive: " + check.summary());
        }
      }
    }

    Verdict verdict;
    if (!notProvenFaults.isEmpty() || !failedChecks.isEmpty()) {
      verdict = Verdict.FAILED;
    } else if (!inconclusiveChecks.isEmpty() || checks.isEmpty() || !skippedFaults.isEmpty()) {
      verdict = Verdict.INCONCLUSIVE;
      if (checks.isEmpty()) {
        reasons.add("no check was run, so nothing was shown");
      }
    } else {
      verdict = Verdict.PASSED;
    }
    ExitCode exitCode = ExitCode.of(verdict);
    if (error != null) {
      reasons.add(0, "stopped by an error: " + error);
      if (verdict != Verdict.FAILED) {
        verdict = Verdict.INCONCLUSIVE;
        exitCode = ExitCode.USAGE_OR_ENVIRONMENT;
      }
    }
    return new Summary(
        exitCode == ExitCode.PASSED,
        verdict,
        exitCode,
        reasons.stream().map(Redactor::redact).toList(),
        passedChecks,
        failedChecks.size(),
        inconclusiveChecks.size(),
        firedFaults,
        notProvenFaults.size(),
        skippedFaults.size(),
        failedChecks,
        inconclusiveChecks,
        notProvenFaults,
        skippedFaults.stream().map(Redactor::redact).toList(),
        snapshotDiffCount,
        dlqRecordCount,
        error);
  }
}
