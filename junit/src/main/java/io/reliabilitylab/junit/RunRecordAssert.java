package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.util.List;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on a run record, from {@link LabAssertions#assertThat(RunRecord)}: the run's verdict,
 * and entry points to its faults and checks.
 */
@API(status = EXPERIMENTAL)
public final class RunRecordAssert extends AbstractAssert<RunRecordAssert, RunRecord> {

  RunRecordAssert(RunRecord run) {
    super(run, RunRecordAssert.class);
  }

  /** The run passed: every check passed, every fault was proven, nothing stopped it (exit 0). */
  public RunRecordAssert passed() {
    isNotNull();
    if (!actual.summary().passed()) {
      failWithMessage("%nExpected the run to pass, but %s", RunDescription.of(actual));
    }
    return this;
  }

  /** The run failed: a check failed or a fault could not be proven to have fired (exit 1). */
  public RunRecordAssert failed() {
    return hasVerdict(Verdict.FAILED);
  }

  /**
   * The run was inconclusive: a check could not decide, a fault was skipped, no check ran, or an
   * environment error stopped it before a check failed.
   */
  public RunRecordAssert inconclusive() {
    return hasVerdict(Verdict.INCONCLUSIVE);
  }

  /**
   * The final snapshot diff compared the sink with the source and counted {@code expected} missing,
   * unexpected and mismatched rows. Fails when no final {@code snapshot-diff} ran, or it could not
   * compare, whatever the count.
   */
  public RunRecordAssert snapshotDiff(long expected) {
    isNotNull();
    CheckResult diff = findCheck(SnapshotDiffCheck.NAME);
    if (diff == null || diff.verdict() == Verdict.INCONCLUSIVE) {
      failWithMessage(
          "%nExpected a snapshot diff of %d rows, but the final %s %s in %s",
          expected,
          SnapshotDiffCheck.NAME,
          diff == null ? "did not run" : "could not compare (" + diff.summary() + ")",
          RunDescription.of(actual));
    } else if (actual.summary().snapshotDiffCount() != expected) {
      failWithMessage(
          "%nExpected a snapshot diff of %d rows, but it was %d (%s) in %s",
          expected,
          actual.summary().snapshotDiffCount(),
          diff.summary(),
          RunDescription.of(actual));
    }
    return this;
  }

  /**
   * Assertions on the fault called {@code fault} (the injector's name, or a fault id such as {@code
   * srl-fault-1-task-failure} when a run injected the same fault twice).
   */
  public FaultRecordAssert fault(String fault) {
    isNotNull();
    List<FaultRecord> named =
        actual.faults().stream()
            .filter(f -> f.evidence().fault().equals(fault) || f.evidence().faultId().equals(fault))
            .toList();
    if (named.isEmpty()) {
      throw failure("%nExpected a fault '%s', but %s", fault, RunDescription.of(actual));
    }
    if (named.size() > 1) {
      throw failure(
          "%nThe run injected '%s' %d times (%s): name one by its id, in %s",
          fault,
          named.size(),
          named.stream().map(f -> f.evidence().faultId()).toList(),
          RunDescription.of(actual));
    }
    return new FaultRecordAssert(named.get(0), actual);
  }

  /**
   * Assertions on the check called {@code check}, as the record names it: {@code snapshot-diff} for
   * the final one, {@code baseline:snapshot-diff} for the baseline's.
   */
  public CheckResultAssert check(String check) {
    isNotNull();
    CheckResult found = findCheck(check);
    if (found == null) {
      throw failure("%nExpected a check '%s', but %s", check, RunDescription.of(actual));
    }
    return new CheckResultAssert(found, actual);
  }

  private RunRecordAssert hasVerdict(Verdict expected) {
    isNotNull();
    if (actual.summary().verdict() != expected) {
      failWithMessage("%nExpected the run to be %s, but %s", expected, RunDescription.of(actual));
    }
    return this;
  }

  private @Nullable CheckResult findCheck(String name) {
    return actual.checks().stream()
        .filter(check -> check.check().equals(name))
        .findFirst()
        .orElse(null);
  }
}
