package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.check.Verdict;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A run's outcome at a glance: the verdict and exit code, the counts behind them, and the names of
 * what failed, could not decide, was not proven or was skipped. Computed by {@link Verdicts}.
 *
 * @param passed whether the run passed (exit code 0)
 * @param verdict the overall verdict
 * @param exitCode the process exit code, written as its number
 * @param reasons one line per thing that kept the run from passing (empty when it passed)
 * @param checksPassed checks that passed
 * @param checksFailed checks that failed
 * @param checksInconclusive checks that could not decide
 * @param faultsFired faults proven to have fired
 * @param faultsNotProven faults not proven to have fired (including ones left armed)
 * @param faultsSkipped faults not injected because the pipeline lacks a capability
 * @param failedChecks the names of the failed checks
 * @param inconclusiveChecks the names of the inconclusive checks
 * @param notProvenFaults the ids of the faults not proven
 * @param skippedFaults the ids of the skipped faults with the reason, {@code id (fault): reason}
 * @param snapshotDiffCount missing, unexpected and mismatched rows in the final snapshot diff
 * @param dlqRecordCount records found in the dead-letter topic
 * @param error the usage or environment error that stopped the run, if any
 */
@API(status = STABLE)
public record Summary(
    boolean passed,
    Verdict verdict,
    ExitCode exitCode,
    List<String> reasons,
    int checksPassed,
    int checksFailed,
    int checksInconclusive,
    int faultsFired,
    int faultsNotProven,
    int faultsSkipped,
    List<String> failedChecks,
    List<String> inconclusiveChecks,
    List<String> notProvenFaults,
    List<String> skippedFaults,
    long snapshotDiffCount,
    long dlqRecordCount,
    @Nullable String error) {

  public Summary {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(exitCode, "exitCode");
    reasons = List.copyOf(reasons);
    failedChecks = List.copyOf(failedChecks);
    inconclusiveChecks = List.copyOf(inconclusiveChecks);
    notProvenFaults = List.copyOf(notProvenFaults);
    skippedFaults = List.copyOf(skippedFaults);
    if (passed != (exitCode == ExitCode.PASSED)) {
      throw new IllegalArgumentException(
          "A summary passes exactly when its exit code is 0, not " + exitCode);
    }
  }
}
