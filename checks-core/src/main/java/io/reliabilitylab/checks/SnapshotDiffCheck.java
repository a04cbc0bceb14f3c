package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Compares the current table with the rows it must hold, row by row and by key.
 *
 * <p><b>Compares</b> {@link CheckContext#expectedCurrent()} (the source table or the oracle) with
 * {@link CheckContext#actualCurrent()} (the sink's current table at a snapshot). Both are read
 * unsorted and sorted with bounded memory (spilling to {@link CheckContext#workDirectory()}), then
 * merge-joined by key. Counts: {@code expected_rows}, {@code actual_rows}, {@code missing} (keys
 * only expected), {@code unexpected} (keys only actual), {@code mismatched} (same key, different
 * values), {@code duplicate_keys_expected}, {@code duplicate_keys_actual} (keys held more than
 * once) and {@code diff_count}, their sum. Digests {@code expected} and {@code actual}: SHA-256 of
 * each side's canonical row set. Samples, in key order: {@code missing}, {@code unexpected}, {@code
 * mismatched} (with the differing columns) and {@code duplicate_key}.
 *
 * <p><b>Passes</b> iff {@code diff_count} is 0. The delivery semantics do not change the verdict:
 * under at-least-once the current table must still match exactly.
 *
 * <p><b>Inconclusive</b> when either input is absent, when reading one fails (with the reason), or
 * when the two schemas' columns or keys differ (the message names them): rows of different shapes
 * cannot be compared.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class SnapshotDiffCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "snapshot-diff";

  public SnapshotDiffCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Diffs the current table against the expected rows by key, with bounded memory:"
        + " missing, unexpected, mismatched and duplicate keys, and SHA-256 of both row sets";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    if (context.expectedCurrent().isEmpty()) {
      return CheckResult.missingInput(NAME, "expected current rows (expectedCurrent)");
    }
    if (context.actualCurrent().isEmpty()) {
      return CheckResult.missingInput(NAME, "actual current rows (actualCurrent)");
    }
    RowSet expected = context.expectedCurrent().get();
    RowSet actual = context.actualCurrent().get();
    Optional<String> incomparable = Inputs.incomparable(expected.schema(), actual.schema());
    if (incomparable.isPresent()) {
      return Outcomes.incomparable(NAME, incomparable.get());
    }
    try {
      return compare(context, expected, actual);
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult compare(CheckContext context, RowSet expected, RowSet actual) {
    Evidence.Builder evidence =
        Evidence.builder(context.sampleLimit())
            .fact("expected", expected.description())
            .fact("actual", actual.description());
    Outcomes.checkpointFact(context, evidence);
    var order = Orderings.rowsByKeyThenValues(expected.schema());
    RowDiff.Counts counts;
    try (Peeking<Row> expectedRows = Inputs.sortedRows(expected, order, context, 2);
        Peeking<Row> actualRows = Inputs.sortedRows(actual, order, context, 2)) {
      counts =
          RowDiff.diff(
              expectedRows,
              actualRows,
              expected.schema(),
              new RowDiff.Sides("expected", "actual", expected.description(), actual.description()),
              evidence);
    }
    if (counts.diffCount() == 0) {
      return CheckResult.passed(
          NAME,
          actual.description()
              + " matches "
              + expected.description()
              + ": "
              + counts.actualRows()
              + " rows, no differences",
          evidence.build());
    }
    return CheckResult.failed(
        NAME,
        counts.diffCount()
            + " differences between "
            + expected.description()
            + " and "
            + actual.description()
            + ": "
            + counts.summary(),
        evidence.build());
  }
}
