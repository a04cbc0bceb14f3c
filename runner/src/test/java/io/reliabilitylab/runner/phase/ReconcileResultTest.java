package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a clean baseline is, the condition for injecting anything after it. */
class ReconcileResultTest {

  private static final CheckResult PASSED = CheckResult.passed("baseline:a", "ok", Evidence.NONE);

  @Test
  void aBaselineIsCleanOnlyWhenEveryCheckRanAndPassed() {
    assertThat(new Reconcile.Result(List.of(PASSED, PASSED), null).clean()).isTrue();
    assertThat(new Reconcile.Result(List.of(), null).clean()).as("no check ran").isFalse();
    assertThat(
            new Reconcile.Result(
                    List.of(PASSED, CheckResult.inconclusive("baseline:b", "?", Evidence.NONE)),
                    null)
                .clean())
        .as("an inconclusive check")
        .isFalse();
    assertThat(
            new Reconcile.Result(
                    List.of(CheckResult.failed("baseline:b", "diff", Evidence.NONE)), null)
                .clean())
        .as("a failed check")
        .isFalse();
    assertThat(new Reconcile.Result(List.of(), "another writer changed it").clean())
        .as("a source that is no reference")
        .isFalse();
  }
}
