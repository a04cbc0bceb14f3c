package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Checks that the changelog holds exactly the expected change envelopes of every key, in order,
 * with the right images — allowing for the snapshot phase, where reads fold earlier changes.
 *
 * <p><b>Compares</b> {@link CheckContext#expectedChangelog()} (the oracle's) with {@link
 * CheckContext#actualChangelog()} key by key. Both are sorted by key, then source position, with
 * bounded memory; the two sides' positions are different spaces, so each key's <em>sequences</em>
 * are compared, never positions. The rule, per key (DESIGN.md's data model): the actual changelog
 * holds at most one {@code r}, a version {@code v} of the row, where {@code v} is the event id of
 * an expected {@code c}, {@code u} (or {@code r}) event of that key whose image the read must
 * equal; it is followed by exactly the expected events after {@code v}, in order, with equal op,
 * event id, before event id and row image. Without an {@code r} the actual sequence must equal the
 * expected one. Memory: one key's events at a time.
 *
 * <p>Counts: {@code expected_events}, {@code actual_events}, {@code keys}, {@code reads}, {@code
 * missing}, {@code unexpected}, {@code out_of_order} (events left out of the longest run in
 * expected order, e.g. one of two swapped updates), {@code image_mismatch} (same identity, other
 * image or before event id; also a read whose image differs from its version), {@code
 * more_than_one_read}, {@code read_of_unknown_version}, {@code duplicates} (repeated identical
 * envelopes) and {@code violations}, the sum of what fails the verdict. Samples, in key order, of
 * kinds {@code missing}, {@code unexpected}, {@code out_of_order}, {@code image_mismatch}, {@code
 * more_than_one_read}, {@code read_of_unknown_version} and {@code duplicate}, with subject {@code
 * event_id=N} (the key subject for {@code more_than_one_read}).
 *
 * <p><b>Semantics</b>: an envelope identical to one already seen for its key (same identity, same
 * image) is a duplicate. Under {@link DeliverySemantics#EXACTLY_ONCE} a duplicate fails; under
 * {@link DeliverySemantics#AT_LEAST_ONCE} it is counted and reported and does not fail. A repeated
 * identity with a different image is an {@code image_mismatch} under both.
 *
 * <p><b>Inconclusive</b> when either changelog is absent or cannot be read, or when their row
 * images have different columns.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class ChangelogCompletenessCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "changelog-completeness";

  public ChangelogCompletenessCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Checks per key that the changelog holds exactly the expected events in order with"
        + " equal images (at most one snapshot read, then the events after its version)";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    if (context.expectedChangelog().isEmpty()) {
      return CheckResult.missingInput(NAME, "expected changelog (expectedChangelog)");
    }
    if (context.actualChangelog().isEmpty()) {
      return CheckResult.missingInput(NAME, "actual changelog (actualChangelog)");
    }
    Changelog expected = context.expectedChangelog().get();
    Changelog actual = context.actualChangelog().get();
    Optional<String> incomparable = Inputs.incomparable(expected.schema(), actual.schema());
    if (incomparable.isPresent()) {
      return Outcomes.incomparable(NAME, incomparable.get());
    }
    try {
      return new Audit(context, expected, actual).run();
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  /** The state of one run of the check. */
  private static final class Audit {
    private final CheckContext context;
    private final Changelog expected;
    private final Changelog actual;
    private final Evidence.Builder evidence;
    private long expectedEvents;
    private long actualEvents;
    private long keys;
    private long reads;
    private long missing;
    private long unexpected;
    private long outOfOrder;
    private long imageMismatch;
    private long moreThanOneRead;
    private long readOfUnknownVersion;
    private long duplicates;

    Audit(CheckContext context, Changelog expected, Changelog actual) {
      this.context = context;
      this.expected = expected;
      this.actual = actual;
      this.evidence =
          Evidence.builder(context.sampleLimit())
              .fact("expected", expected.description())
              .fact("actual", actual.description())
              .fact("semantics", context.semantics().name());
      Outcomes.checkpointFact(context, evidence);
    }

    CheckResult run() {
      Comparator<ChangeEvent> order = Orderings.eventsByKeyThenPosition(expected.schema());
      Comparator<Row> keyOrder = Orderings.rowsByKey(expected.schema());
      int[] keyIndexes = expected.schema().keyIndexes();
      try (Peeking<ChangeEvent> want = Inputs.sortedEvents(expected, e -> true, order, context, 2);
          Peeking<ChangeEvent> got = Inputs.sortedEvents(actual, e -> true, order, context, 2)) {
        while (true) {
          ChangeEvent w = want.peek();
          ChangeEvent g = got.peek();
          if (w == null && g == null) {
            break;
          }
          int c = w == null ? 1 : g == null ? -1 : keyOrder.compare(w.row(), g.row());
          List<ChangeEvent> wantKey = c <= 0 ? readKey(want, keyIndexes) : List.of();
          List<ChangeEvent> gotKey = c >= 0 ? readKey(got, keyIndexes) : List.of();
          expectedEvents += wantKey.size();
          actualEvents += gotKey.size();
          keys++;
          judgeKey(wantKey, gotKey);
        }
      }
      boolean duplicatesFail = context.semantics() == DeliverySemantics.EXACTLY_ONCE;
      long violations =
          missing
              + unexpected
              + outOfOrder
              + imageMismatch
              + moreThanOneRead
              + readOfUnknownVersion
              + (duplicatesFail ? duplicates : 0);
      evidence
          .count("expected_events", expectedEvents)
          .count("actual_events", actualEvents)
          .count("keys", keys)
          .count("reads", reads)
          .count("missing", missing)
          .count("unexpected", unexpected)
          .count("out_of_order", outOfOrder)
          .count("image_mismatch", imageMismatch)
          .count("more_than_one_read", moreThanOneRead)
          .count("read_of_unknown_version", readOfUnknownVersion)
          .count("duplicates", duplicates)
          .count("violations", violations);
      String duplicateNote =
          duplicates == 0
              ? ""
              : ", "
                  + duplicates
                  + " duplicate envelopes "
                  + (duplicatesFail
                      ? "(fail under EXACTLY_ONCE)"
                      : "(allowed under AT_LEAST_ONCE)");
      if (violations == 0) {
        return CheckResult.passed(
            NAME,
            actual.description()
                + " holds the expected events of all "
                + keys
                + " keys in order"
                + duplicateNote,
            evidence.build());
      }
      return CheckResult.failed(
          NAME,
          violations
              + " violations in "
              + actual.description()
              + ": "
              + missing
              + " missing, "
              + unexpected
              + " unexpected, "
              + outOfOrder
              + " out of order, "
              + imageMismatch
              + " image mismatches, "
              + moreThanOneRead
              + " extra reads, "
              + readOfUnknownVersion
              + " reads of unknown versions"
              + duplicateNote,
          evidence.build());
    }

    private static List<ChangeEvent> readKey(Peeking<ChangeEvent> events, int[] keyIndexes) {
      List<ChangeEvent> key = new ArrayList<>(4);
      ChangeEvent first = events.next();
      key.add(first);
      ChangeEvent next;
      while ((next = events.peek()) != null
          && Orderings.sameKey(first.row(), next.row(), keyIndexes)) {
        key.add(events.next());
      }
      return key;
    }

    /** Judges one key: its expected sequence against its actual one. */
    private void judgeKey(List<ChangeEvent> want, List<ChangeEvent> got) {
      // 1. Repeated identities: identical ones are duplicates, others conflict.
      Map<EventIdentity, ChangeEvent> firstSeen = new LinkedHashMap<>();
      for (ChangeEvent event : got) {
        ChangeEvent seen = firstSeen.putIfAbsent(EventIdentity.of(event), event);
        if (seen == null) {
          continue;
        }
        if (sameImage(seen, event)) {
          duplicates++;
          sample(
              "duplicate",
              event,
              Map.of(),
              event.row().toCanonicalMap(),
              List.of(),
              "delivered again at " + event.position());
        } else {
          imageMismatch++;
          sample(
              "image_mismatch",
              event,
              seen.row().toCanonicalMap(),
              event.row().toCanonicalMap(),
              differing(seen, event),
              "appears twice with different images in " + actual.description());
        }
      }
      List<ChangeEvent> sequence = new ArrayList<>(firstSeen.values());

      // 2. The snapshot read, if any, picks the version the expected tail starts after.
      List<ChangeEvent> tail = want;
      List<ChangeEvent> readEvents =
          sequence.stream().filter(e -> e.op() == ChangeOp.READ).toList();
      if (!readEvents.isEmpty()) {
        reads += readEvents.size();
        sequence = new ArrayList<>(sequence.stream().filter(e -> e.op() != ChangeOp.READ).toList());
        ChangeEvent read = readEvents.get(0);
        if (readEvents.size() > 1) {
          moreThanOneRead += readEvents.size() - 1;
          evidence.sample(
              new EvidenceSample(
                  "more_than_one_read",
                  Inputs.subject(read.row()),
                  Map.of(),
                  Map.of(),
                  List.of(),
                  readEvents.size()
                      + " snapshot reads of one key in "
                      + actual.description()
                      + ": "
                      + readEvents.stream().map(ChangeEvent::identity).toList()));
        }
        if (firstSeen.values().iterator().next() != read) {
          outOfOrder++;
          sample(
              "out_of_order",
              read,
              Map.of(),
              read.row().toCanonicalMap(),
              List.of(),
              "the snapshot read comes after other events of its key");
        }
        int version = versionIndex(want, read.eventId());
        if (version < 0) {
          readOfUnknownVersion++;
          sample(
              "read_of_unknown_version",
              read,
              Map.of(),
              read.row().toCanonicalMap(),
              List.of(),
              "no expected c or u event of this key has event id " + read.eventId());
          tail = tailFromFirstKnown(want, sequence);
        } else {
          ChangeEvent version0 = want.get(version);
          if (!version0.row().equals(read.row())) {
            imageMismatch++;
            sample(
                "image_mismatch",
                read,
                version0.row().toCanonicalMap(),
                read.row().toCanonicalMap(),
                version0.row().differingColumns(read.row()),
                "the snapshot read differs from expected " + version0.identity());
          }
          tail = want.subList(version + 1, want.size());
        }
      }

      // 3. The rest must equal the expected tail: same identities, images and order.
      Map<EventIdentity, Integer> tailIndex = new HashMap<>();
      for (int i = 0; i < tail.size(); i++) {
        tailIndex.putIfAbsent(EventIdentity.of(tail.get(i)), i);
      }
      boolean[] matched = new boolean[tail.size()];
      List<ChangeEvent> matchedEvents = new ArrayList<>();
      List<Integer> matchedIndexes = new ArrayList<>();
      for (ChangeEvent event : sequence) {
        Integer index = tailIndex.get(EventIdentity.of(event));
        if (index == null) {
          unexpected++;
          sample(
              "unexpected",
              event,
              Map.of(),
              event.row().toCanonicalMap(),
              List.of(),
              "not among the expected events of its key"
                  + (readEvents.isEmpty() ? "" : " after the snapshot read")
                  + " in "
                  + expected.description());
          continue;
        }
        matched[index] = true;
        matchedEvents.add(event);
        matchedIndexes.add(index);
        ChangeEvent wanted = tail.get(index);
        if (!sameImage(wanted, event)) {
          imageMismatch++;
          sample(
              "image_mismatch",
              event,
              wanted.row().toCanonicalMap(),
              event.row().toCanonicalMap(),
              differing(wanted, event),
              "differs from the expected envelope");
        }
      }
      boolean[] inOrder = longestIncreasing(matchedIndexes);
      for (int i = 0; i < matchedEvents.size(); i++) {
        if (!inOrder[i]) {
          outOfOrder++;
          ChangeEvent event = matchedEvents.get(i);
          sample(
              "out_of_order",
              event,
              Map.of(),
              event.row().toCanonicalMap(),
              List.of(),
              "at place "
                  + (i + 1)
                  + " of its key's actual events but expected at place "
                  + (matchedIndexes.get(i) + 1)
                  + " of the expected tail");
        }
      }
      for (int i = 0; i < tail.size(); i++) {
        if (!matched[i]) {
          missing++;
          ChangeEvent event = tail.get(i);
          sample(
              "missing",
              event,
              event.row().toCanonicalMap(),
              Map.of(),
              List.of(),
              "missing from " + actual.description());
        }
      }
    }

    private void sample(
        String kind,
        ChangeEvent event,
        Map<String, String> expectedImage,
        Map<String, String> actualImage,
        List<String> differingColumns,
        String note) {
      evidence.sample(
          new EvidenceSample(
              kind,
              "event_id=" + event.eventId(),
              expectedImage,
              actualImage,
              differingColumns,
              event.identity() + " of " + Inputs.subject(event.row()) + ": " + note));
    }

    /** The index of the expected version a read carries: a c, u or r with that event id. */
    private static int versionIndex(List<ChangeEvent> want, long eventId) {
      for (int i = 0; i < want.size(); i++) {
        ChangeEvent event = want.get(i);
        if (event.eventId() == eventId && event.op() != ChangeOp.DELETE) {
          return i;
        }
      }
      return -1;
    }

    /**
     * For a read of an unknown version, the expected tail starts at the first expected event the
     * actual changelog holds, so that the rest is still compared.
     */
    private static List<ChangeEvent> tailFromFirstKnown(
        List<ChangeEvent> want, List<ChangeEvent> sequence) {
      if (sequence.isEmpty()) {
        return List.of();
      }
      for (int i = 0; i < want.size(); i++) {
        EventIdentity identity = EventIdentity.of(want.get(i));
        for (ChangeEvent event : sequence) {
          if (EventIdentity.of(event).equals(identity)) {
            return want.subList(i, want.size());
          }
        }
      }
      return want;
    }

    private static boolean sameImage(ChangeEvent a, ChangeEvent b) {
      return a.row().equals(b.row()) && Objects.equals(a.beforeEventId(), b.beforeEventId());
    }

    private static List<String> differing(ChangeEvent want, ChangeEvent got) {
      List<String> columns = new ArrayList<>(want.row().differingColumns(got.row()));
      if (!Objects.equals(want.beforeEventId(), got.beforeEventId())) {
        columns.add("before_event_id");
      }
      return columns;
    }

    /**
     * Marks the elements of one longest strictly increasing subsequence (the events that are in
     * expected order); the others are out of order. Deterministic: ties go to the earliest.
     */
    static boolean[] longestIncreasing(List<Integer> values) {
      int n = values.size();
      int[] tailEnds = new int[n];
      int[] previous = new int[n];
      int length = 0;
      for (int i = 0; i < n; i++) {
        int value = values.get(i);
        int lo = 0;
        int hi = length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (values.get(tailEnds[mid]) < value) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        previous[i] = lo > 0 ? tailEnds[lo - 1] : -1;
        tailEnds[lo] = i;
        if (lo == length) {
          length++;
        }
      }
      boolean[] in = new boolean[n];
      Arrays.fill(in, false);
      for (int i = length == 0 ? -1 : tailEnds[length - 1]; i >= 0; i = previous[i]) {
        in[i] = true;
      }
      return in;
    }
  }
}
