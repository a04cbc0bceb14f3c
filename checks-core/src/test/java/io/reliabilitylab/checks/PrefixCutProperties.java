package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random source histories grouped into random transactions and committed at random points: the
 * reader's-view check holds every commit to the prefix the pipeline claims, passing commits at the
 * claimed boundaries and failing a commit inside a transaction or one that shows a change without
 * an earlier one, while a per-key claim lets both pass.
 */
class PrefixCutProperties {

  private static final Path WORK = Path.of(System.getProperty("java.io.tmpdir"));

  @Property(tries = 300)
  void commitsAtTransactionBoundariesPassEveryClaim(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 5) Integer> sizes,
      @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 1000) Integer> cuts,
      @ForAll CommitConsistency claim,
      @ForAll @IntRange(min = 1, max = 60) int memory) {
    List<ChangeEvent> events = transactions(steps, sizes);
    List<Integer> boundaries = boundaries(events);
    List<Integer> points = new ArrayList<>();
    cuts.forEach(cut -> points.add(boundaries.get(cut % boundaries.size())));
    points.sort(Integer::compare);
    points.add(events.size());

    CheckResult result = check(events, states(events, points), logs(events, points), claim, memory);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().facts().get("commit_consistency")).startsWith(claim.name());
  }

  @Property(tries = 300)
  void aCommitInsideATransactionFailsOnlyWhenTransactionsAreClaimed(
      @ForAll @Size(min = 2, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 5) Integer> sizes,
      @ForAll @IntRange(min = 0, max = 1000) int where,
      @ForAll boolean changelog) {
    int memory = 1000;
    List<ChangeEvent> events = transactions(steps, sizes);
    List<Integer> inside = new ArrayList<>();
    List<Integer> boundaries = boundaries(events);
    for (int point = 1; point < events.size(); point++) {
      if (!boundaries.contains(point)) {
        inside.add(point);
      }
    }
    Assume.that(!inside.isEmpty());
    int torn = inside.get(where % inside.size());
    // A reader cannot tell a torn state that equals one at a transaction's end (the changelog can).
    for (int boundary : boundaries) {
      Assume.that(
          changelog || !fold(events.subList(0, torn)).equals(fold(events.subList(0, boundary))));
    }
    List<Integer> points = List.of(torn, events.size());
    List<List<Row>> current = changelog ? null : states(events, points);
    List<List<ChangeEvent>> logs = changelog ? logs(events, points) : null;

    CheckResult transactions =
        check(events, current, logs, CommitConsistency.TRANSACTION_PREFIX, memory);
    assertThat(transactions.verdict()).as(transactions.summary()).isEqualTo(Verdict.FAILED);
    assertThat(transactions.evidence().count("torn_transaction")).isEqualTo(1);
    assertThat(transactions.evidence().samples().get(0).note()).contains("a torn transaction");
    for (CommitConsistency weaker :
        List.of(CommitConsistency.CHANGE_PREFIX, CommitConsistency.PER_KEY)) {
      CheckResult result = check(events, current, logs, weaker, memory);
      assertThat(result.verdict()).as(weaker + ": " + result.summary()).isEqualTo(Verdict.PASSED);
    }
  }

  /**
   * The database orders one transaction's changes to different keys as it likes (a writer may send
   * its inserts in one statement): a commit holding every earlier transaction and, of the last one,
   * each key's first changes, is a change prefix.
   */
  @Property(tries = 300)
  void aCommitHoldingAnyPartOfItsLastTransactionIsAChangePrefix(
      @ForAll @Size(min = 2, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 5) Integer> sizes,
      @ForAll @IntRange(min = 0, max = 1000) int which,
      @ForAll @Size(min = 6, max = 6) List<@IntRange(min = 0, max = 5) Integer> taken,
      @ForAll boolean changelog) {
    List<ChangeEvent> events = transactions(steps, sizes);
    List<Integer> boundaries = boundaries(events);
    Assume.that(boundaries.size() > 1);
    int start = boundaries.get(which % (boundaries.size() - 1));
    int end = boundaries.get(which % (boundaries.size() - 1) + 1);
    // each key (order_id 0..5) keeps its first taken[key] changes of the transaction, in order
    List<ChangeEvent> shown = new ArrayList<>(events.subList(0, start));
    Map<RowKey, Integer> kept = new java.util.HashMap<>();
    for (ChangeEvent event : events.subList(start, end)) {
      int key = Integer.parseInt(Inputs.subject(event.row()).substring("order_id=".length()));
      if (kept.merge(event.key(), 1, Integer::sum) <= taken.get(key)) {
        shown.add(event);
      }
    }
    List<List<Row>> current =
        changelog ? null : List.of(List.copyOf(fold(shown).values()), finalRows(events));
    List<List<ChangeEvent>> logs =
        changelog ? List.of(Fixture.asSink(shown), Fixture.asSink(events)) : null;

    CheckResult result = check(events, current, logs, CommitConsistency.CHANGE_PREFIX, 1000);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
  }

  @Property(tries = 300)
  void aCommitShowingAChangeWithoutAnEarlierOneFailsAPrefixClaim(
      @ForAll @Size(min = 2, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int where,
      @ForAll @IntRange(min = 0, max = 1000) int which) {
    int memory = 1000;
    List<ChangeEvent> events = transactions(steps, List.of(1));
    int prefix = 2 + where % (events.size() - 1);
    // A key whose last change in the prefix is followed, still in the prefix, by another key's.
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < prefix - 1; i++) {
      RowKey key = events.get(i).key();
      boolean lastOfKey = true;
      boolean otherAfter = false;
      for (int j = i + 1; j < prefix; j++) {
        lastOfKey &= !events.get(j).key().equals(key);
        otherAfter |= !events.get(j).key().equals(key);
      }
      if (lastOfKey && otherAfter) {
        candidates.add(i);
      }
    }
    Assume.that(!candidates.isEmpty());
    int held = candidates.get(which % candidates.size());
    // The commit holds the prefix without that one change: the key shows its state before it.
    List<ChangeEvent> shown = new ArrayList<>(events.subList(0, prefix));
    shown.remove(held);
    // ...and is no prefix at all (a later change may undo the one held back).
    for (int point = 0; point <= events.size(); point++) {
      Assume.that(!fold(shown).equals(fold(events.subList(0, point))));
    }
    List<List<Row>> current =
        List.of(List.copyOf(fold(shown).values()), List.copyOf(fold(events).values()));

    CheckResult result = check(events, current, null, CommitConsistency.CHANGE_PREFIX, memory);
    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("no_prefix")).isEqualTo(1);
    assertThat(check(events, current, null, CommitConsistency.PER_KEY, memory).verdict())
        .isEqualTo(Verdict.PASSED);
  }

  @Property(tries = 100)
  void anAtLeastOnceClaimIsJudgedPerKey(
      @ForAll @Size(min = 2, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 2, max = 5) Integer> sizes) {
    List<ChangeEvent> events = transactions(steps, sizes);
    List<Integer> points = new ArrayList<>();
    for (int point = 1; point <= events.size(); point++) {
      points.add(point);
    }
    CheckResult result =
        ReaderViewProperties.check(
            Fixture.context(DeliverySemantics.AT_LEAST_ONCE, WORK)
                .commitConsistency(CommitConsistency.TRANSACTION_PREFIX),
            events,
            states(events, points),
            null);
    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().facts().get("commit_consistency")).contains("at least once");
  }

  /** The history's changes, grouped into transactions of the given sizes (then of one change). */
  static List<ChangeEvent> transactions(List<Integer> steps, List<Integer> sizes) {
    List<ChangeEvent> history = HistoryProperties.history(steps).changelog();
    List<ChangeEvent> grouped = new ArrayList<>();
    int transaction = 0;
    int row = 0;
    for (ChangeEvent event : history) {
      int size = transaction < sizes.size() ? sizes.get(transaction) : 1;
      grouped.add(Fixture.at(event, SourcePosition.of(Oracle.LOG, transaction, row)));
      if (++row == size) {
        transaction++;
        row = 0;
      }
    }
    return grouped;
  }

  /** The prefix lengths that end a transaction, 0 included. */
  private static List<Integer> boundaries(List<ChangeEvent> events) {
    List<Integer> boundaries = new ArrayList<>(List.of(0));
    for (int i = 1; i <= events.size(); i++) {
      if (i == events.size()
          || events.get(i).position().offset() != events.get(i - 1).position().offset()) {
        boundaries.add(i);
      }
    }
    return boundaries;
  }

  private static CheckResult check(
      List<ChangeEvent> events,
      List<List<Row>> current,
      List<List<ChangeEvent>> changelog,
      CommitConsistency claim,
      int memory) {
    return ReaderViewProperties.check(
        Fixture.context(DeliverySemantics.EXACTLY_ONCE, WORK)
            .commitConsistency(claim)
            .maxRowsInMemory(memory),
        events,
        current,
        changelog);
  }

  private static List<List<Row>> states(List<ChangeEvent> events, List<Integer> points) {
    List<List<Row>> states = new ArrayList<>();
    points.forEach(point -> states.add(List.copyOf(fold(events.subList(0, point)).values())));
    return states;
  }

  private static List<List<ChangeEvent>> logs(List<ChangeEvent> events, List<Integer> points) {
    List<List<ChangeEvent>> states = new ArrayList<>();
    points.forEach(point -> states.add(Fixture.asSink(events.subList(0, point))));
    return states;
  }

  private static List<Row> finalRows(List<ChangeEvent> events) {
    return List.copyOf(fold(events).values());
  }

  private static Map<RowKey, Row> fold(List<ChangeEvent> events) {
    return ReaderViewProperties.fold(events, events.size());
  }

  /** The oracle's log name, as the positions of source transactions carry it. */
  private static final class Oracle {
    static final String LOG = "oracle";
  }
}
