package io.reliabilitylab.checks;

import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSetDigest;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A merge-join of two row streams sorted by key then values: counts, digests and samples of
 * missing, unexpected, mismatched and duplicated keys. Memory: one key's rows at a time, at most
 * {@link #MAX_DISTINCT_PER_KEY} distinct ones kept.
 */
final class RowDiff {

  static final String EXPECTED_ROWS = "expected_rows";
  static final String ACTUAL_ROWS = "actual_rows";
  static final String MISSING = "missing";
  static final String UNEXPECTED = "unexpected";
  static final String MISMATCHED = "mismatched";
  static final String DUPLICATE_KEYS_EXPECTED = "duplicate_keys_expected";
  static final String DUPLICATE_KEYS_ACTUAL = "duplicate_keys_actual";
  static final String DIFF_COUNT = "diff_count";

  private static final int MAX_DISTINCT_PER_KEY = 1024;

  /** Names of the two sides: their digest names and their descriptions for notes. */
  record Sides(
      String expectedDigest,
      String actualDigest,
      String expectedDescription,
      String actualDescription) {}

  /** The counts of one diff. */
  record Counts(
      long expectedRows,
      long actualRows,
      long missing,
      long unexpected,
      long mismatched,
      long duplicateKeysExpected,
      long duplicateKeysActual) {

    long diffCount() {
      return missing + unexpected + mismatched + duplicateKeysExpected + duplicateKeysActual;
    }

    String summary() {
      return missing
          + " missing, "
          + unexpected
          + " unexpected, "
          + mismatched
          + " mismatched, "
          + (duplicateKeysExpected + duplicateKeysActual)
          + " duplicate keys";
    }
  }

  private RowDiff() {}

  /** The counts of one diff and the SHA-256 digests of the rows it read on each side. */
  record Tally(Counts counts, String expectedDigest, String actualDigest) {}

  /** Runs the diff, writing counts, digests and samples into the evidence. */
  static Counts diff(
      Peeking<Row> expected,
      Peeking<Row> actual,
      TableSchema schema,
      Sides sides,
      Evidence.Builder evidence) {
    Tally tally = compare(expected, actual, schema, sides, evidence);
    record(tally.counts(), evidence);
    evidence
        .digest(sides.expectedDigest(), tally.expectedDigest())
        .digest(sides.actualDigest(), tally.actualDigest());
    return tally.counts();
  }

  /** Writes a diff's counts into the evidence. */
  static void record(Counts counts, Evidence.Builder evidence) {
    evidence
        .count(EXPECTED_ROWS, counts.expectedRows())
        .count(ACTUAL_ROWS, counts.actualRows())
        .count(MISSING, counts.missing())
        .count(UNEXPECTED, counts.unexpected())
        .count(MISMATCHED, counts.mismatched())
        .count(DUPLICATE_KEYS_EXPECTED, counts.duplicateKeysExpected())
        .count(DUPLICATE_KEYS_ACTUAL, counts.duplicateKeysActual())
        .count(DIFF_COUNT, counts.diffCount());
  }

  /** Runs the diff, writing only samples into the evidence; the caller records the rest. */
  static Tally compare(
      Peeking<Row> expected,
      Peeking<Row> actual,
      TableSchema schema,
      Sides sides,
      Evidence.Builder evidence) {
    int[] keys = schema.keyIndexes();
    var keyOrder = Orderings.rowsByKey(schema);
    RowSetDigest expectedDigest = new RowSetDigest();
    RowSetDigest actualDigest = new RowSetDigest();
    long missing = 0;
    long unexpected = 0;
    long mismatched = 0;
    long duplicatesExpected = 0;
    long duplicatesActual = 0;
    while (true) {
      Row e = expected.peek();
      Row a = actual.peek();
      if (e == null && a == null) {
        break;
      }
      int c = e == null ? 1 : a == null ? -1 : keyOrder.compare(e, a);
      Group exp = c <= 0 ? Group.read(expected, keys, expectedDigest) : Group.EMPTY;
      Group act = c >= 0 ? Group.read(actual, keys, actualDigest) : Group.EMPTY;
      if (act.size == 0) {
        missing++;
        Row row = exp.first();
        evidence.sample(
            new EvidenceSample(
                "missing",
                Inputs.subject(row),
                row.toCanonicalMap(),
                Map.of(),
                List.of(),
                "in " + sides.expectedDescription() + " but not in " + sides.actualDescription()));
      } else if (exp.size == 0) {
        unexpected++;
        Row row = act.first();
        evidence.sample(
            new EvidenceSample(
                "unexpected",
                Inputs.subject(row),
                Map.of(),
                row.toCanonicalMap(),
                List.of(),
                "in " + sides.actualDescription() + " but not in " + sides.expectedDescription()));
      } else if (!exp.distinct.equals(act.distinct)) {
        mismatched++;
        Row want = firstNotIn(exp.distinct, act.distinct);
        Row got = firstNotIn(act.distinct, exp.distinct);
        List<String> differing = want.differingColumns(got);
        evidence.sample(
            new EvidenceSample(
                "mismatched",
                Inputs.subject(want),
                want.toCanonicalMap(),
                got.toCanonicalMap(),
                differing,
                "columns "
                    + differing
                    + " differ between "
                    + sides.expectedDescription()
                    + " and "
                    + sides.actualDescription()));
      }
      if (exp.size > 1) {
        duplicatesExpected++;
        evidence.sample(duplicateSample(exp, sides.expectedDescription(), true));
      }
      if (act.size > 1) {
        duplicatesActual++;
        evidence.sample(duplicateSample(act, sides.actualDescription(), false));
      }
    }
    Counts counts =
        new Counts(
            expectedDigest.rows(),
            actualDigest.rows(),
            missing,
            unexpected,
            mismatched,
            duplicatesExpected,
            duplicatesActual);
    return new Tally(counts, expectedDigest.hex(), actualDigest.hex());
  }

  private static EvidenceSample duplicateSample(Group group, String description, boolean expected) {
    Row row = group.first();
    Map<String, String> image = row.toCanonicalMap();
    return new EvidenceSample(
        "duplicate_key",
        Inputs.subject(row),
        expected ? image : Map.of(),
        expected ? Map.of() : image,
        List.of(),
        "key appears " + group.size + " times in " + description);
  }

  private static Row firstNotIn(List<Row> rows, List<Row> others) {
    for (Row row : rows) {
      if (!others.contains(row)) {
        return row;
      }
    }
    return rows.get(0);
  }

  /** The rows of one key: how many, and the distinct ones (rows arrive sorted, so adjacent). */
  private static final class Group {
    static final Group EMPTY = new Group();

    final List<Row> distinct = new ArrayList<>(1);
    long size;

    Row first() {
      return distinct.get(0);
    }

    static Group read(Peeking<Row> rows, int[] keys, RowSetDigest digest) {
      Group group = new Group();
      Row first = rows.next();
      digest.add(first);
      group.distinct.add(first);
      group.size = 1;
      Row last = first;
      Row next;
      while ((next = rows.peek()) != null && Orderings.sameKey(first, next, keys)) {
        rows.next();
        digest.add(next);
        group.size++;
        if (!next.equals(last) && group.distinct.size() < MAX_DISTINCT_PER_KEY) {
          group.distinct.add(next);
        }
        last = next;
      }
      return group;
    }
  }
}
