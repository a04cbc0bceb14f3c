package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Checks that the sink is consistent with itself: the current table equals the fold of the
 * changelog read at the same checkpoint — a verdict that holds even while the source keeps writing.
 *
 * <p><b>Compares</b> the fold of {@link CheckContext#actualChangelog()} (per key, in source
 * position order: {@code r}, {@code c}, {@code u} set the row image, {@code d} removes it; an
 * identical duplicate is idempotent) with {@link CheckContext#actualCurrent()}. Both are sorted
 * with bounded memory and merge-joined by key, reporting as {@link SnapshotDiffCheck} does with the
 * fold as the expected side: counts {@code expected_rows} (rows of the fold), {@code actual_rows},
 * {@code missing}, {@code unexpected}, {@code mismatched}, {@code duplicate_keys_expected} (always
 * 0), {@code duplicate_keys_actual}, {@code diff_count}; digests {@code changelog_fold} and {@code
 * current}; samples in key order. The fact {@code checkpoint_id} names the checkpoint when known.
 *
 * <p><b>Passes</b> iff {@code diff_count} is 0, under either delivery semantics (duplicates in the
 * changelog fold idempotently, so at-least-once delivery still has to agree).
 *
 * <p><b>Inconclusive</b> when either input is absent or cannot be read, or when the changelog's row
 * images and the current table have different columns.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class CurrentChangelogConsistencyCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "current-changelog-consistency";

  public CurrentChangelogConsistencyCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Checks that the current table equals the fold of the changelog read at the same"
        + " checkpoint";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    if (context.actualChangelog().isEmpty()) {
      return CheckResult.missingInput(NAME, "actual changelog (actualChangelog)");
    }
    if (context.actualCurrent().isEmpty()) {
      return CheckResult.missingInput(NAME, "actual current rows (actualCurrent)");
    }
    Changelog changelog = context.actualChangelog().get();
    RowSet current = context.actualCurrent().get();
    Optional<String> incomparable = Inputs.incomparable(changelog.schema(), current.schema());
    if (incomparable.isPresent()) {
      return Outcomes.incomparable(NAME, incomparable.get());
    }
    try {
      return compare(context, changelog, current);
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult compare(CheckContext context, Changelog changelog, RowSet current) {
    Evidence.Builder evidence =
        Evidence.builder(context.sampleLimit())
            .fact("changelog", changelog.description())
            .fact("current", current.description());
    Outcomes.checkpointFact(context, evidence);
    String at = context.checkpointId().map(id -> " at checkpoint " + id).orElse("");
    String foldDescription = "the fold of " + changelog.description();
    RowDiff.Counts counts;
    try (Peeking<ChangeEvent> events =
            Inputs.sortedEvents(
                changelog,
                event -> true,
                Orderings.eventsByKeyThenPosition(changelog.schema()),
                context,
                2);
        Peeking<Row> rows =
            Inputs.sortedRows(
                current, Orderings.rowsByKeyThenValues(current.schema()), context, 2)) {
      counts =
          RowDiff.diff(
              Peeking.of(new ChangelogFold(events, changelog.schema().keyIndexes())),
              rows,
              current.schema(),
              new RowDiff.Sides(
                  "changelog_fold", "current", foldDescription, current.description()),
              evidence);
    }
    if (counts.diffCount() == 0) {
      return CheckResult.passed(
          NAME,
          current.description()
              + " equals the fold of "
              + changelog.description()
              + at
              + ": "
              + counts.actualRows()
              + " rows",
          evidence.build());
    }
    return CheckResult.failed(
        NAME,
        current.description()
            + " differs from the fold of "
            + changelog.description()
            + at
            + " in "
            + counts.diffCount()
            + " keys: "
            + counts.summary(),
        evidence.build());
  }
}
