package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.runner.RowSetDiff;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void theSourceSelfCheckNamesTheDifferingKeysCapped(@TempDir Path spill) {
    List<Row> oracle = new ArrayList<>();
    for (long id = 1; id <= 10; id++) {
      oracle.add(order(id));
    }
    List<Row> source = new ArrayList<>(oracle.subList(0, 2));
    source.add(order(42));
    CheckResult diff =
        RowSetDiff.of(
            DeliverySemantics.EXACTLY_ONCE,
            RowSet.of(TableSchema.ORDERS, "oracle", oracle),
            RowSet.of(TableSchema.ORDERS, "source", source),
            spill);

    assertThat(Reconcile.differingKeys(diff))
        .isEqualTo(
            "; missing order_id=3, missing order_id=4, missing order_id=5, missing order_id=6,"
                + " missing order_id=7 and 4 more");
    assertThat(Reconcile.differingKeys(CheckResult.passed("snapshot-diff", "ok", Evidence.NONE)))
        .isEmpty();
  }

  private static Row order(long id) {
    return TableSchema.ORDERS.row(
        id, "bk-" + id, 1L, 100L, "NEW", id, 42, Instant.parse("2026-01-01T00:00:00Z"));
  }
}
