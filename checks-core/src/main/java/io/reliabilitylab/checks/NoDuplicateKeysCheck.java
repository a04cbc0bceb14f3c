package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.RowSetDigest;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Checks that the current table holds no primary key twice (an upsert sink that lost its equality
 * deletes shows as a key held by several rows).
 *
 * <p><b>Compares</b> the rows of {@link CheckContext#actualCurrent()} with each other: they are
 * sorted by key with bounded memory, so that rows of one key are adjacent. Counts: {@code rows},
 * {@code duplicate_keys} (keys held by more than one row) and {@code duplicate_rows} (rows beyond
 * the first of their key). Samples of kind {@code duplicate_key}, in key order, name the key and
 * how many rows hold it. Digest {@code actual}: SHA-256 of the canonical row set.
 *
 * <p><b>Passes</b> iff {@code duplicate_keys} is 0, under either delivery semantics: a duplicated
 * delivery must still leave one row per key.
 *
 * <p><b>Inconclusive</b> when the actual current table is absent or cannot be read.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class NoDuplicateKeysCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "no-duplicate-keys";

  public NoDuplicateKeysCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Checks that the current table holds each primary key once, with bounded memory";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    if (context.actualCurrent().isEmpty()) {
      return CheckResult.missingInput(NAME, "actual current rows (actualCurrent)");
    }
    RowSet actual = context.actualCurrent().get();
    try {
      return audit(context, actual);
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult audit(CheckContext context, RowSet actual) {
    Evidence.Builder evidence =
        Evidence.builder(context.sampleLimit()).fact("actual", actual.description());
    Outcomes.checkpointFact(context, evidence);
    int[] keys = actual.schema().keyIndexes();
    RowSetDigest digest = new RowSetDigest();
    long duplicateKeys = 0;
    long duplicateRows = 0;
    try (Peeking<Row> rows =
        Inputs.sortedRows(actual, Orderings.rowsByKeyThenValues(actual.schema()), context, 1)) {
      while (rows.hasNext()) {
        Row first = rows.next();
        digest.add(first);
        long count = 1;
        Row next;
        while ((next = rows.peek()) != null && Orderings.sameKey(first, next, keys)) {
          digest.add(rows.next());
          count++;
        }
        if (count > 1) {
          duplicateKeys++;
          duplicateRows += count - 1;
          evidence.sample(
              new EvidenceSample(
                  "duplicate_key",
                  Inputs.subject(first),
                  Map.of(),
                  first.toCanonicalMap(),
                  List.of(),
                  "key appears " + count + " times in " + actual.description()));
        }
      }
    }
    evidence
        .count("rows", digest.rows())
        .count("duplicate_keys", duplicateKeys)
        .count("duplicate_rows", duplicateRows)
        .digest("actual", digest.hex());
    if (duplicateKeys == 0) {
      return CheckResult.passed(
          NAME,
          actual.description() + " holds each of its " + digest.rows() + " keys once",
          evidence.build());
    }
    return CheckResult.failed(
        NAME,
        duplicateKeys
            + " keys appear more than once in "
            + actual.description()
            + " ("
            + duplicateRows
            + " extra rows)",
        evidence.build());
  }
}
