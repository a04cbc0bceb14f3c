package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.ChangeEventCodec;
import io.reliabilitylab.checks.sort.ExternalSorter;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Audits event ids: the current table carries exactly the expected versions, and the changelog
 * holds each expected change envelope, nothing else, and (under exactly-once) nothing twice.
 *
 * <p><b>Part one, the current table</b> (needs {@link CheckContext#expectedCurrent()}, {@link
 * CheckContext#actualCurrent()} and a schema with an event id column): the set of event ids in the
 * actual current table must equal the set in the expected one. Counts {@code
 * current_event_ids_expected}, {@code current_event_ids_actual} (distinct ids), {@code
 * current_event_ids_missing}, {@code current_event_ids_unexpected} and {@code
 * current_rows_without_event_id}; samples {@code missing} / {@code unexpected} / {@code
 * missing_event_id} name the event id and the row's key.
 *
 * <p><b>Part two, the changelog</b> (needs {@link CheckContext#actualChangelog()}): counts {@code
 * changelog_row_count}, {@code changelog_distinct_identity_count} (distinct {@code (op,
 * event_id)}), {@code changelog_duplicate_identity_count} and {@code duplicate_occurrence_count},
 * the sum over duplicated identities of their count minus one; samples of kind {@code duplicate}
 * with subject {@code event_id=N} and the count and op in the note. When {@link
 * CheckContext#expectedChangelog()} is given, every expected identity must appear ({@code
 * changelog_event_ids_missing}) and no other ({@code changelog_event_ids_unexpected}), except that
 * an actual {@code r} is matched by event id against the expected {@code c}/{@code u} events of its
 * key (a snapshot read carries some version's id) and excuses the expected events of that key up to
 * that version, which the read folded ({@code changelog_events_folded_into_reads}). Sorting is by
 * event id with bounded memory; the order and images of events are {@link
 * ChangelogCompletenessCheck}'s concern.
 *
 * <p><b>Semantics</b>: under {@link DeliverySemantics#EXACTLY_ONCE} any duplicate fails; under
 * {@link DeliverySemantics#AT_LEAST_ONCE} duplicates are counted and reported and the verdict
 * passes if nothing is missing or unexpected.
 *
 * <p><b>Inconclusive</b> when neither part has its inputs; a part with only some of its inputs, or
 * one whose table has no event id column, or whose input cannot be read, is inconclusive and makes
 * the verdict at best inconclusive. A part without any of its inputs is skipped (fact {@code
 * current_audit} or {@code changelog_audit} says so).
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class EventIdAuditCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "event-id-audit";

  public EventIdAuditCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Audits event ids: the current table holds the expected versions, the changelog holds"
        + " every expected envelope once (duplicates counted; they fail under exactly-once)";
  }

  /** The outcome of one part: null verdict when the part was skipped. */
  private record Part(@Nullable Verdict verdict, String summary) {
    static Part skipped(String why) {
      return new Part(null, why);
    }
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    boolean hasCurrent =
        context.expectedCurrent().isPresent() || context.actualCurrent().isPresent();
    if (!hasCurrent && context.actualChangelog().isEmpty()) {
      return CheckResult.missingInput(
          NAME, "current rows (expectedCurrent and actualCurrent) or changelog (actualChangelog)");
    }
    Evidence.Builder evidence =
        Evidence.builder(context.sampleLimit()).fact("semantics", context.semantics().name());
    Outcomes.checkpointFact(context, evidence);
    Part current = auditCurrent(context, evidence);
    Part changelog = auditChangelog(context, evidence);
    evidence.fact("current_audit", current.summary());
    evidence.fact("changelog_audit", changelog.summary());
    Verdict verdict = Verdict.PASSED;
    boolean ran = false;
    List<String> summaries = new ArrayList<>();
    for (Part part : List.of(current, changelog)) {
      if (part.verdict() != null) {
        ran = true;
        verdict = verdict.worst(part.verdict());
        summaries.add(part.summary());
      }
    }
    if (!ran) {
      return CheckResult.inconclusive(
          NAME,
          "inconclusive: " + current.summary() + "; " + changelog.summary(),
          evidence.build());
    }
    String summary = String.join("; ", summaries);
    return switch (verdict) {
      case PASSED -> CheckResult.passed(NAME, summary, evidence.build());
      case FAILED -> CheckResult.failed(NAME, summary, evidence.build());
      case INCONCLUSIVE ->
          CheckResult.inconclusive(NAME, "inconclusive: " + summary, evidence.build());
    };
  }

  // ---- part one: event ids of the current table ----

  private static Part auditCurrent(CheckContext context, Evidence.Builder evidence) {
    Optional<RowSet> expectedInput = context.expectedCurrent();
    Optional<RowSet> actualInput = context.actualCurrent();
    if (expectedInput.isEmpty() && actualInput.isEmpty()) {
      return Part.skipped("current table not audited: no current rows were given");
    }
    if (expectedInput.isEmpty() || actualInput.isEmpty()) {
      String missingInput =
          expectedInput.isEmpty()
              ? "expected current rows (expectedCurrent)"
              : "actual current rows (actualCurrent)";
      return new Part(
          Verdict.INCONCLUSIVE, "current table not audited: no " + missingInput + " was given");
    }
    RowSet expected = expectedInput.get();
    RowSet actual = actualInput.get();
    evidence.fact("expected_current", expected.description());
    evidence.fact("actual_current", actual.description());
    for (RowSet rows : List.of(expected, actual)) {
      if (rows.schema().eventIdColumn() == null) {
        return new Part(
            Verdict.INCONCLUSIVE,
            "current table not audited: "
                + rows.schema().name()
                + " has no event id column (TableSchema.eventIdColumn)");
      }
    }
    try {
      return compareCurrent(context, expected, actual, evidence);
    } catch (RuntimeException e) {
      return new Part(Verdict.INCONCLUSIVE, "current table not audited: " + Outcomes.reason(e));
    }
  }

  private static Part compareCurrent(
      CheckContext context, RowSet expected, RowSet actual, Evidence.Builder evidence) {
    long distinctExpected = 0;
    long distinctActual = 0;
    long missing = 0;
    long unexpected = 0;
    long withoutEventId = 0;
    try (Peeking<Row> want =
            Inputs.sortedRows(expected, Orderings.rowsByEventId(expected.schema()), context, 2);
        Peeking<Row> got =
            Inputs.sortedRows(actual, Orderings.rowsByEventId(actual.schema()), context, 2)) {
      while (true) {
        Row w = want.peek();
        Row g = got.peek();
        if (w == null && g == null) {
          break;
        }
        Long wId = w == null ? null : w.eventId();
        Long gId = g == null ? null : g.eventId();
        if (w != null && wId == null) {
          withoutEventId++;
          sampleWithoutId(evidence, want.next(), expected.description());
          continue;
        }
        if (g != null && gId == null) {
          withoutEventId++;
          sampleWithoutId(evidence, got.next(), actual.description());
          continue;
        }
        int c = w == null ? 1 : g == null ? -1 : Long.compare(wId, gId);
        Row wFirst = c <= 0 ? skipEventId(want) : null;
        Row gFirst = c >= 0 ? skipEventId(got) : null;
        if (wFirst != null) {
          distinctExpected++;
        }
        if (gFirst != null) {
          distinctActual++;
        }
        if (gFirst == null && wFirst != null) {
          missing++;
          evidence.sample(
              new EvidenceSample(
                  "missing",
                  "event_id=" + wFirst.eventId(),
                  wFirst.toCanonicalMap(),
                  Map.of(),
                  List.of(),
                  "carried by "
                      + Inputs.subject(wFirst)
                      + " in "
                      + expected.description()
                      + " but by no row of "
                      + actual.description()));
        } else if (wFirst == null && gFirst != null) {
          unexpected++;
          evidence.sample(
              new EvidenceSample(
                  "unexpected",
                  "event_id=" + gFirst.eventId(),
                  Map.of(),
                  gFirst.toCanonicalMap(),
                  List.of(),
                  "carried by "
                      + Inputs.subject(gFirst)
                      + " in "
                      + actual.description()
                      + " but by no row of "
                      + expected.description()));
        }
      }
    }
    evidence
        .count("current_event_ids_expected", distinctExpected)
        .count("current_event_ids_actual", distinctActual)
        .count("current_event_ids_missing", missing)
        .count("current_event_ids_unexpected", unexpected)
        .count("current_rows_without_event_id", withoutEventId);
    if (missing + unexpected + withoutEventId == 0) {
      return new Part(
          Verdict.PASSED,
          actual.description() + " carries the " + distinctActual + " expected event ids");
    }
    return new Part(
        Verdict.FAILED,
        "event ids of "
            + actual.description()
            + " differ from "
            + expected.description()
            + ": "
            + missing
            + " missing, "
            + unexpected
            + " unexpected"
            + (withoutEventId == 0 ? "" : ", " + withoutEventId + " rows without an event id"));
  }

  /** Takes the rows with the next row's event id; returns the first of them. */
  private static Row skipEventId(Peeking<Row> rows) {
    Row first = rows.next();
    Long id = first.eventId();
    Row next;
    while ((next = rows.peek()) != null && Objects.equals(next.eventId(), id)) {
      rows.next();
    }
    return first;
  }

  private static void sampleWithoutId(Evidence.Builder evidence, Row row, String description) {
    evidence.sample(
        new EvidenceSample(
            "missing_event_id",
            Inputs.subject(row),
            Map.of(),
            row.toCanonicalMap(),
            List.of(),
            "a row of " + description + " has no event id"));
  }

  // ---- part two: event ids of the changelog ----

  private static Part auditChangelog(CheckContext context, Evidence.Builder evidence) {
    Optional<Changelog> actualInput = context.actualChangelog();
    if (actualInput.isEmpty()) {
      return context.expectedChangelog().isPresent()
          ? new Part(
              Verdict.INCONCLUSIVE,
              "changelog not audited: no actual changelog (actualChangelog) was given")
          : Part.skipped("changelog not audited: no changelog was given");
    }
    Changelog actual = actualInput.get();
    Changelog expected = context.expectedChangelog().orElse(null);
    evidence.fact("actual_changelog", actual.description());
    if (expected != null) {
      evidence.fact("expected_changelog", expected.description());
      Optional<String> incomparable = Inputs.incomparable(expected.schema(), actual.schema());
      if (incomparable.isPresent()) {
        return new Part(Verdict.INCONCLUSIVE, "changelog not audited: " + incomparable.get());
      }
    }
    try {
      return new ChangelogAudit(context, actual, expected, evidence).run();
    } catch (RuntimeException e) {
      return new Part(Verdict.INCONCLUSIVE, "changelog not audited: " + Outcomes.reason(e));
    }
  }

  /** One audit of a changelog's identities. */
  private static final class ChangelogAudit {
    private final CheckContext context;
    private final Changelog actual;
    private final @Nullable Changelog expected;
    private final Evidence.Builder evidence;
    private final Comparator<ChangeEvent> byIdentity;
    private long rows;
    private long distinct;
    private long duplicateIdentities;
    private long duplicateOccurrences;
    private long missing;
    private long unexpected;
    private long folded;

    ChangelogAudit(
        CheckContext context,
        Changelog actual,
        @Nullable Changelog expected,
        Evidence.Builder evidence) {
      this.context = context;
      this.actual = actual;
      this.expected = expected;
      this.evidence = evidence;
      this.byIdentity = Orderings.eventsByIdentity(actual.schema());
    }

    Part run() {
      if (expected == null) {
        try (Peeking<ChangeEvent> got =
            Inputs.sortedEvents(actual, e -> true, byIdentity, context, 1)) {
          while (got.hasNext()) {
            takeActualIdentity(got);
          }
        }
      } else {
        try (CloseableIterator<ChangeEvent> excused = excusedByReads(expected)) {
          compareIdentities(expected, Peeking.of(excused));
        }
      }
      evidence
          .count("changelog_row_count", rows)
          .count("changelog_distinct_identity_count", distinct)
          .count("changelog_duplicate_identity_count", duplicateIdentities)
          .count("duplicate_occurrence_count", duplicateOccurrences);
      if (expected != null) {
        evidence
            .count("changelog_event_ids_missing", missing)
            .count("changelog_event_ids_unexpected", unexpected)
            .count("changelog_events_folded_into_reads", folded);
      }
      boolean duplicatesFail = context.semantics() == DeliverySemantics.EXACTLY_ONCE;
      String duplicates =
          duplicateOccurrences == 0
              ? "no duplicates"
              : duplicateOccurrences
                  + " duplicate occurrences of "
                  + duplicateIdentities
                  + " envelopes"
                  + (duplicatesFail
                      ? " (fail under EXACTLY_ONCE)"
                      : " (allowed under AT_LEAST_ONCE)");
      String scope =
          expected == null
              ? " (no expected changelog: only duplicates audited)"
              : ", " + missing + " expected envelopes missing, " + unexpected + " unexpected";
      String summary =
          actual.description()
              + ": "
              + rows
              + " rows, "
              + distinct
              + " distinct envelopes, "
              + duplicates
              + scope;
      boolean failed = missing + unexpected > 0 || (duplicatesFail && duplicateOccurrences > 0);
      return new Part(failed ? Verdict.FAILED : Verdict.PASSED, summary);
    }

    /** Takes one identity's occurrences from the actual stream; returns its first event. */
    private ChangeEvent takeActualIdentity(Peeking<ChangeEvent> got) {
      ChangeEvent first = got.next();
      EventIdentity identity = EventIdentity.of(first);
      long count = 1;
      ChangeEvent next;
      while ((next = got.peek()) != null && EventIdentity.of(next).equals(identity)) {
        got.next();
        count++;
      }
      rows += count;
      distinct++;
      if (count > 1) {
        duplicateIdentities++;
        duplicateOccurrences += count - 1;
        evidence.sample(
            new EvidenceSample(
                "duplicate",
                "event_id=" + first.eventId(),
                Map.of(),
                first.row().toCanonicalMap(),
                List.of(),
                identity
                    + " of "
                    + Inputs.subject(first.row())
                    + " appears "
                    + count
                    + " times (op "
                    + first.op().code()
                    + ") in "
                    + actual.description()));
      }
      return first;
    }

    /**
     * The expected events a snapshot read folded, sorted by identity: per key, those up to and
     * including the version an actual {@code r} carries. An {@code r} that carries no expected
     * version of its key is counted unexpected here.
     */
    private CloseableIterator<ChangeEvent> excusedByReads(Changelog expected) {
      Comparator<ChangeEvent> byKey = Orderings.eventsByKeyThenPosition(expected.schema());
      int[] keys = expected.schema().keyIndexes();
      Comparator<Row> keyOrder = Orderings.rowsByKey(expected.schema());
      ExternalSorter<ChangeEvent> sorter =
          ExternalSorter.of(
              ChangeEventCodec.of(expected.schema()),
              byIdentity,
              Math.max(1, context.maxRowsInMemory() / 3),
              context.workDirectory());
      try (Peeking<ChangeEvent> want = Inputs.sortedEvents(expected, e -> true, byKey, context, 3);
          Peeking<ChangeEvent> reads =
              Inputs.sortedEvents(actual, e -> e.op() == ChangeOp.READ, byKey, context, 3)) {
        return sorter.sort(new ExcusedEvents(want, reads, keys, keyOrder));
      }
    }

    /** Walks expected events and actual reads key by key, yielding the folded expected events. */
    private final class ExcusedEvents implements Iterator<ChangeEvent> {
      private final Peeking<ChangeEvent> want;
      private final Peeking<ChangeEvent> reads;
      private final int[] keys;
      private final Comparator<Row> keyOrder;
      private Iterator<ChangeEvent> pending = List.<ChangeEvent>of().iterator();

      ExcusedEvents(
          Peeking<ChangeEvent> want,
          Peeking<ChangeEvent> reads,
          int[] keys,
          Comparator<Row> keyOrder) {
        this.want = want;
        this.reads = reads;
        this.keys = keys;
        this.keyOrder = keyOrder;
      }

      @Override
      public boolean hasNext() {
        while (!pending.hasNext() && reads.hasNext()) {
          pending = nextKeyWithReads().iterator();
        }
        return pending.hasNext();
      }

      @Override
      public ChangeEvent next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return pending.next();
      }

      private List<ChangeEvent> nextKeyWithReads() {
        ChangeEvent read = reads.next();
        List<ChangeEvent> keyReads = new ArrayList<>();
        keyReads.add(read);
        ChangeEvent next;
        while ((next = reads.peek()) != null && Orderings.sameKey(read.row(), next.row(), keys)) {
          keyReads.add(reads.next());
        }
        // Skip expected events of keys without reads, then take this key's.
        while ((next = want.peek()) != null && keyOrder.compare(next.row(), read.row()) < 0) {
          want.next();
        }
        List<ChangeEvent> history = new ArrayList<>();
        while ((next = want.peek()) != null && Orderings.sameKey(read.row(), next.row(), keys)) {
          history.add(want.next());
        }
        int foldedUpTo = -1;
        for (ChangeEvent keyRead : keyReads) {
          int version = -1;
          for (int i = 0; i < history.size(); i++) {
            ChangeEvent candidate = history.get(i);
            if (candidate.eventId() == keyRead.eventId() && candidate.op() != ChangeOp.DELETE) {
              version = i;
              break;
            }
          }
          if (version < 0) {
            unexpected++;
            evidence.sample(
                new EvidenceSample(
                    "unexpected",
                    "event_id=" + keyRead.eventId(),
                    Map.of(),
                    keyRead.row().toCanonicalMap(),
                    List.of(),
                    keyRead.identity()
                        + " of "
                        + Inputs.subject(keyRead.row())
                        + " in "
                        + actual.description()
                        + " carries no expected c or u event id of that key"));
          }
          foldedUpTo = Math.max(foldedUpTo, version);
        }
        folded += foldedUpTo + 1;
        return history.subList(0, foldedUpTo + 1);
      }
    }

    /** Merges actual, expected and excused identities, all sorted by identity. */
    private void compareIdentities(Changelog expected, Peeking<ChangeEvent> excused) {
      try (Peeking<ChangeEvent> got =
              Inputs.sortedEvents(actual, e -> true, byIdentity, context, 3);
          Peeking<ChangeEvent> want =
              Inputs.sortedEvents(expected, e -> true, byIdentity, context, 3)) {
        while (true) {
          ChangeEvent g = got.peek();
          ChangeEvent w = want.peek();
          if (g == null && w == null) {
            break;
          }
          int c =
              w == null ? 1 : g == null ? -1 : EventIdentity.of(w).compareTo(EventIdentity.of(g));
          ChangeEvent wFirst = c <= 0 ? skipIdentity(want) : null;
          ChangeEvent gFirst = c >= 0 ? takeActualIdentity(got) : null;
          if (gFirst != null && gFirst.op() == ChangeOp.READ) {
            // Reads were judged against their key's versions in excusedByReads.
            gFirst = null;
            if (wFirst == null) {
              continue;
            }
          }
          if (wFirst != null && gFirst == null) {
            if (!isExcused(excused, EventIdentity.of(wFirst))) {
              missing++;
              evidence.sample(
                  new EvidenceSample(
                      "missing",
                      "event_id=" + wFirst.eventId(),
                      wFirst.row().toCanonicalMap(),
                      Map.of(),
                      List.of(),
                      wFirst.identity()
                          + " of "
                          + Inputs.subject(wFirst.row())
                          + " is missing from "
                          + actual.description()));
            }
          } else if (wFirst == null && gFirst != null) {
            unexpected++;
            evidence.sample(
                new EvidenceSample(
                    "unexpected",
                    "event_id=" + gFirst.eventId(),
                    Map.of(),
                    gFirst.row().toCanonicalMap(),
                    List.of(),
                    gFirst.identity()
                        + " of "
                        + Inputs.subject(gFirst.row())
                        + " is not an expected envelope of "
                        + expected.description()));
          }
        }
      }
    }

    private static ChangeEvent skipIdentity(Peeking<ChangeEvent> events) {
      ChangeEvent first = events.next();
      EventIdentity identity = EventIdentity.of(first);
      ChangeEvent next;
      while ((next = events.peek()) != null && EventIdentity.of(next).equals(identity)) {
        events.next();
      }
      return first;
    }

    private static boolean isExcused(Peeking<ChangeEvent> excused, EventIdentity identity) {
      ChangeEvent next;
      while ((next = excused.peek()) != null && EventIdentity.of(next).compareTo(identity) < 0) {
        excused.next();
      }
      return next != null && EventIdentity.of(next).equals(identity);
    }
  }
}
