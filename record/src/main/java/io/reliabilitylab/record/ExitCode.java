package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.check.Verdict;
import org.apiguardian.api.API;

/**
 * The lab's process exit codes. A failed check or a fault that could not be proven to have fired
 * outranks an inconclusive check; usage and environment errors stop a run before any verdict.
 */
@API(status = STABLE)
public enum ExitCode {
  /** Every check passed and every fault was proven to have fired. */
  PASSED(0),
  /** A check failed, or a fault could not be proven to have fired. */
  FAILED(1),
  /** A wrong argument, a missing file, a source lacking a CDC prerequisite: nothing was judged. */
  USAGE_OR_ENVIRONMENT(2),
  /** No check failed, but at least one could not decide for lack of evidence. */
  INCONCLUSIVE(3);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  /** The number the process exits with. */
  public int code() {
    return code;
  }

  /** The exit code for an overall verdict. */
  public static ExitCode of(Verdict verdict) {
    return switch (verdict) {
      case PASSED -> PASSED;
      case FAILED -> FAILED;
      case INCONCLUSIVE -> INCONCLUSIVE;
    };
  }
}
