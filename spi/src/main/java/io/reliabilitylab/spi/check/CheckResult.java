package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A check's verdict, a one-line summary a person can read, and the evidence.
 *
 * <p>{@code CheckResult.failed("snapshot-diff", "2 rows missing from orders_current", evidence)}
 */
@API(status = STABLE)
public record CheckResult(String check, Verdict verdict, String summary, Evidence evidence) {

  public CheckResult {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(evidence, "evidence");
  }

  public static CheckResult passed(String check, String summary, Evidence evidence) {
    return new CheckResult(check, Verdict.PASSED, summary, evidence);
  }

  public static CheckResult failed(String check, String summary, Evidence evidence) {
    return new CheckResult(check, Verdict.FAILED, summary, evidence);
  }

  public static CheckResult inconclusive(String check, String summary, Evidence evidence) {
    return new CheckResult(check, Verdict.INCONCLUSIVE, summary, evidence);
  }

  /** Inconclusive because an input the check needs was not given. */
  public static CheckResult missingInput(String check, String input) {
    return inconclusive(
        check,
        "inconclusive: no " + input + " was given, so this check could not run",
        Evidence.builder().fact("missing_input", input).build());
  }
}
