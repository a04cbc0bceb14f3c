package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.KeyRangeDigests;
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
 * <p><b>Digest-and-bisect</b>: when both sides offer {@linkplain RowSet#keyRangeDigests key-range
 * digests} (a MariaDB table digests in SQL, an Iceberg table over its data files in parallel), key
 * buckets are compared by digest first and only the differing ones are read row by row: the same
 * counts and samples, the row totals from the digests, and {@code expected}/{@code actual} then
 * SHA-256 of each side's bucket digests. Fact {@value #METHOD} says which way was taken and why.
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

  /** Fact: how the sides were compared, {@value #DIGEST_AND_BISECT} or a full diff and why. */
  public static final String METHOD = "method";

  /** The {@value #METHOD} of a comparison by key-range digests. */
  public static final String DIGEST_AND_BISECT = "digest-and-bisect";

  private static final String FULL_DIFF = "full diff";

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

  /**
   * Digest-and-bisect when both sides offer key-range digests and they decide; empty (after noting
   * why in a fact) when the full diff must run.
   */
  private static Optional<RowDiff.Tally> digested(
      CheckContext context,
      RowSet expected,
      RowSet actual,
      RowDiff.Sides sides,
      Evidence.Builder evidence) {
    Optional<KeyRangeDigests> expectedDigests = expected.keyRangeDigests();
    if (expectedDigests.isEmpty()) {
      evidence.fact(METHOD, FULL_DIFF + ": " + expected.description() + " offers no digests");
      return Optional.empty();
    }
    try (KeyRangeDigests want = expectedDigests.get()) {
      Optional<KeyRangeDigests> actualDigests = actual.keyRangeDigests();
      if (actualDigests.isEmpty()) {
        evidence.fact(METHOD, FULL_DIFF + ": " + actual.description() + " offers no digests");
        return Optional.empty();
      }
      try (KeyRangeDigests got = actualDigests.get()) {
        Optional<String> why = DigestBisect.notApplicable(want, got, expected.schema());
        if (why.isPresent()) {
          evidence.fact(METHOD, FULL_DIFF + ": digests cannot decide, " + why.get());
          return Optional.empty();
        }
        Optional<DigestBisect.Result> result =
            new DigestBisect(want, got, expected.schema()).compare(context, sides, evidence);
        if (result.isEmpty()) {
          evidence.fact(METHOD, FULL_DIFF + ": the keys span more than a long");
          return Optional.empty();
        }
        evidence
            .fact(METHOD, DIGEST_AND_BISECT)
            .fact("digest_buckets", Long.toString(result.get().buckets()))
            .fact("differing_buckets", Long.toString(result.get().differingBuckets()))
            .fact("rows_read", Long.toString(result.get().rowsRead()))
            .fact("expected_digest_ms", Long.toString(result.get().expectedDigestMs()))
            .fact("actual_digest_ms", Long.toString(result.get().actualDigestMs()));
        return Optional.of(result.get().tally());
      }
    }
  }

  private static RowDiff.Tally fullDiff(
      CheckContext context,
      RowSet expected,
      RowSet actual,
      RowDiff.Sides sides,
      Evidence.Builder evidence) {
    var order = Orderings.rowsByKeyThenValues(expected.schema());
    try (Peeking<Row> expectedRows = Inputs.sortedRows(expected, order, context, 2);
        Peeking<Row> actualRows = Inputs.sortedRows(actual, order, context, 2)) {
      return RowDiff.compare(expectedRows, actualRows, expected.schema(), sides, evidence);
    }
  }

  private static CheckResult compare(CheckContext context, RowSet expected, RowSet actual) {
    Evidence.Builder evidence =
        Evidence.builder(context.sampleLimit())
            .fact("expected", expected.description())
            .fact("actual", actual.description());
    Outcomes.checkpointFact(context, evidence);
    RowDiff.Sides sides =
        new RowDiff.Sides("expected", "actual", expected.description(), actual.description());
    RowDiff.Tally tally =
        digested(context, expected, actual, sides, evidence)
            .orElseGet(() -> fullDiff(context, expected, actual, sides, evidence));
    RowDiff.Counts counts = tally.counts();
    RowDiff.record(counts, evidence);
    evidence
        .digest(sides.expectedDigest(), tally.expectedDigest())
        .digest(sides.actualDigest(), tally.actualDigest());
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
