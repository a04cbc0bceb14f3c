package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/** Assertions on one check of a run, from {@link RunRecordAssert#check(String)}. */
@API(status = EXPERIMENTAL)
public final class CheckResultAssert extends AbstractAssert<CheckResultAssert, CheckResult> {

  private final RunRecord run;

  CheckResultAssert(CheckResult check, RunRecord run) {
    super(check, CheckResultAssert.class);
    this.run = run;
  }

  /** The check passed. */
  public CheckResultAssert passed() {
    return hasVerdict(Verdict.PASSED);
  }

  /** The check failed: its evidence shows what differs. */
  public CheckResultAssert failed() {
    return hasVerdict(Verdict.FAILED);
  }

  /** The check could not decide, for lack of an input or evidence. */
  public CheckResultAssert inconclusive() {
    return hasVerdict(Verdict.INCONCLUSIVE);
  }

  private CheckResultAssert hasVerdict(Verdict expected) {
    isNotNull();
    if (actual.verdict() != expected) {
      throw failure(
          "%nExpected check %s to be %s, but it is %s in %s",
          actual.check(), expected, RunDescription.of(actual), RunDescription.of(run));
    }
    return this;
  }
}
