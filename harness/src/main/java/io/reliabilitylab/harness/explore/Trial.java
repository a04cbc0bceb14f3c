package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.spi.check.CheckResult;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One case run through the lab, with what it showed.
 *
 * @param number the try's number within its phase, from 1
 * @param phase whether the case was drawn, tried while shrinking, or replayed
 * @param exploreCase the case
 * @param positions where each fault was placed in the writes ({@code after-event} and {@code
 *     snapshot-phase} counts as planned; checkpoints counted from the injection)
 * @param workloadDigest the SHA-256 of the workload the case's changes stand for
 * @param exitCode the run's exit code
 * @param failures what kept the run from passing, comparable across runs: failed checks by name (a
 *     baseline's with the {@code baseline:} prefix dropped), faults not proven, an error
 * @param failedChecks the failed checks with their evidence
 * @param runId the run record's id
 * @param took how long the run took
 */
@API(status = EXPERIMENTAL)
public record Trial(
    int number,
    Phase phase,
    ExploreCase exploreCase,
    List<String> positions,
    String workloadDigest,
    ExitCode exitCode,
    List<String> failures,
    List<CheckResult> failedChecks,
    @Nullable String runId,
    Duration took) {

  /** Why a case ran. */
  public enum Phase {
    GENERATED,
    SHRINKING,
    REPLAY
  }

  public Trial {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(exploreCase, "exploreCase");
    positions = List.copyOf(positions);
    Objects.requireNonNull(workloadDigest, "workloadDigest");
    Objects.requireNonNull(exitCode, "exitCode");
    failures = List.copyOf(failures);
    failedChecks = List.copyOf(failedChecks);
    Objects.requireNonNull(took, "took");
  }

  /** Whether the run kept a check or a fault proof from passing. */
  public boolean failed() {
    return exitCode != ExitCode.PASSED;
  }

  /**
   * Whether this run fails the way {@code original} did: it failed and shares at least one of its
   * failures. Shrinking keeps only such cases, so it cannot drift to another defect.
   */
  public boolean reproduces(Trial original) {
    return failed() && !Collections.disjoint(failures, original.failures());
  }
}
