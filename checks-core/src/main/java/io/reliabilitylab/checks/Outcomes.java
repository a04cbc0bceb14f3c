package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;

/** Verdicts shared by the checks: inconclusive answers and common facts. */
final class Outcomes {

  private Outcomes() {}

  /** Inconclusive because reading an input, or sorting it, failed. */
  static CheckResult unreadable(String check, RuntimeException failure) {
    String reason = reason(failure);
    return CheckResult.inconclusive(
        check, "inconclusive: " + reason, Evidence.builder().fact("error", reason).build());
  }

  /** Inconclusive because the inputs cannot be compared, e.g. their schemas differ. */
  static CheckResult incomparable(String check, String reason) {
    return CheckResult.inconclusive(
        check, "inconclusive: " + reason, Evidence.builder().fact("error", reason).build());
  }

  /** One line on why a check could not complete. */
  static String reason(RuntimeException failure) {
    if (failure instanceof InputReadException read) {
      return "could not read " + read.source() + ": " + describe(read.getCause());
    }
    return "the check could not complete: " + describe(failure);
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Adds the checkpoint the actual tables were read at, when known. */
  static void checkpointFact(CheckContext context, Evidence.Builder evidence) {
    context.checkpointId().ifPresent(id -> evidence.fact("checkpoint_id", Long.toString(id)));
  }
}
