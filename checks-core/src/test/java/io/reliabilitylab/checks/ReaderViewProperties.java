package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random source histories committed at random points: the reader's-view check passes every faithful
 * sequence of snapshots and fails each kind of state a reader must never see, naming it.
 */
class ReaderViewProperties {

  private static final Path WORK = Path.of(System.getProperty("java.io.tmpdir"));

  @Property(tries = 300)
  void faithfulCommitSequencesPass(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 1000) Integer> cuts,
      @ForAll boolean atLeastOnce,
      @ForAll @IntRange(min = 1, max = 60) int memory) {
    Fixture source = HistoryProperties.history(steps);
    List<Integer> points = points(source, cuts);
    CheckResult result =
        check(
            source,
            currentStates(source, points),
            changelogStates(source, points),
            atLeastOnce,
            memory);
    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
  }

  @Property(tries = 200)
  void aRowThatVanishesBetweenCommitsFails(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int where,
      @ForAll @IntRange(min = 0, max = 1000) int which) {
    Fixture source = HistoryProperties.history(steps);
    int cut = where % (source.events.size() + 1);
    List<Row> live = new ArrayList<>(fold(source.events, cut).values());
    Assume.that(!live.isEmpty());
    Row lost = live.get(which % live.size());
    Assume.that(!deletedAfter(source.events, cut, lost.key()));
    List<List<Row>> states = new ArrayList<>(currentStates(source, List.of(cut)));
    List<Row> without = new ArrayList<>(live);
    without.remove(lost);
    states.add(without);
    states.addAll(currentStates(source, List.of(source.events.size())));
    CheckResult result = check(source, states, null, false, 1000);
    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("vanished")).isPositive();
    assertThat(result.evidence().samples().get(0).subject()).isEqualTo(Inputs.subject(lost));
    // A replay may hide the key again only by replaying one of its deletes: at-least-once
    // tolerates the loss when the source deleted the key before, and only then.
    boolean deletedBefore =
        source.events.subList(0, cut).stream()
            .anyMatch(event -> event.op() == ChangeOp.DELETE && event.key().equals(lost.key()));
    assertThat(check(source, states, null, true, 1000).verdict())
        .isEqualTo(deletedBefore ? Verdict.PASSED : Verdict.FAILED);
  }

  @Property(tries = 200)
  void aDeletedRowThatComesBackFails(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int which) {
    Fixture source = HistoryProperties.history(steps);
    List<Integer> deletes = new ArrayList<>();
    for (int i = 0; i < source.events.size(); i++) {
      if (source.events.get(i).op() == ChangeOp.DELETE) {
        deletes.add(i);
      }
    }
    Assume.that(!deletes.isEmpty());
    int delete = deletes.get(which % deletes.size());
    ChangeEvent deleted = source.events.get(delete);
    List<List<Row>> states = new ArrayList<>(currentStates(source, List.of(delete, delete + 1)));
    List<Row> back = new ArrayList<>(states.get(1));
    back.add(deleted.row());
    states.add(back);
    states.addAll(currentStates(source, List.of(source.events.size())));
    CheckResult result = check(source, states, null, false, 1000);
    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("resurrected") + result.evidence().count("duplicate_key"))
        .isPositive();
  }

  @Property(tries = 200)
  void aRowTheSourceNeverHeldFailsUnderEitherSemantics(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int where,
      @ForAll @IntRange(min = 0, max = 1000) int which,
      @ForAll boolean atLeastOnce) {
    Fixture source = HistoryProperties.history(steps);
    int cut = where % (source.events.size() + 1);
    List<Row> live = new ArrayList<>(fold(source.events, cut).values());
    Assume.that(!live.isEmpty());
    int index = which % live.size();
    List<Row> corrupted = new ArrayList<>(live);
    corrupted.set(index, live.get(index).with("status", "corrupted"));
    List<List<Row>> states = new ArrayList<>();
    states.add(corrupted);
    states.addAll(currentStates(source, List.of(source.events.size())));
    CheckResult result = check(source, states, null, atLeastOnce, 1000);
    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("phantom")).isEqualTo(1);
  }

  @Property(tries = 200)
  void aChangelogCommitThatSkipsAnEnvelopeFails(
      @ForAll @Size(min = 2, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int which) {
    Fixture source = HistoryProperties.history(steps);
    List<ChangeEvent> events = source.events;
    // An envelope followed, later in the source, by another of its key.
    List<Integer> skippable = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      for (int j = i + 1; j < events.size(); j++) {
        if (events.get(j).key().equals(events.get(i).key())) {
          skippable.add(i);
          break;
        }
      }
    }
    Assume.that(!skippable.isEmpty());
    int skipped = skippable.get(which % skippable.size());
    List<ChangeEvent> torn = new ArrayList<>(events);
    torn.remove(skipped);
    List<List<ChangeEvent>> logs = List.of(Fixture.asSink(torn), Fixture.asSink(events));
    CheckResult result = check(source, null, logs, true, 1000);
    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("gap")).isPositive();
    assertThat(result.evidence().samples().get(0).subject())
        .isEqualTo(Inputs.subject(events.get(skipped).row()));
  }

  @Property(tries = 100)
  void anEnvelopeVisibleTwiceFailsExactlyOnceOnly(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll @IntRange(min = 0, max = 1000) int which) {
    Fixture source = HistoryProperties.history(steps);
    List<ChangeEvent> events = source.events;
    List<ChangeEvent> twice = new ArrayList<>(events);
    twice.add(events.get(which % events.size()));
    List<List<ChangeEvent>> logs = List.of(Fixture.asSink(events), Fixture.asSink(twice));

    CheckResult exactlyOnce = check(source, null, logs, false, 1000);
    assertThat(exactlyOnce.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(exactlyOnce.evidence().count("duplicate_envelope")).isEqualTo(1);
    CheckResult atLeastOnce = check(source, null, logs, true, 1000);
    assertThat(atLeastOnce.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(atLeastOnce.evidence().count("tolerated")).isEqualTo(1);
  }

  private static CheckResult check(
      Fixture source,
      List<List<Row>> current,
      List<List<ChangeEvent>> changelog,
      boolean atLeastOnce,
      int memory) {
    CheckContext.Builder context =
        Fixture.context(
                atLeastOnce ? DeliverySemantics.AT_LEAST_ONCE : DeliverySemantics.EXACTLY_ONCE,
                WORK)
            .expectedChangelog(Fixture.log("oracle changelog", source.changelog()))
            .maxRowsInMemory(memory);
    if (current != null) {
      context.actualCurrent(CommittedStates.rows("iceberg orders_current", current));
    }
    if (changelog != null) {
      context.actualChangelog(CommittedStates.changelog("iceberg orders_changelog", changelog));
    }
    return new ReaderViewCheck().check(context.build());
  }

  /** The check of commits of either table against {@code expected}, the source's changes. */
  static CheckResult check(
      CheckContext.Builder context,
      List<ChangeEvent> expected,
      List<List<Row>> current,
      List<List<ChangeEvent>> changelog) {
    context.expectedChangelog(Fixture.log("oracle changelog", expected));
    if (current != null) {
      context.actualCurrent(CommittedStates.rows("iceberg orders_current", current));
    }
    if (changelog != null) {
      context.actualChangelog(CommittedStates.changelog("iceberg orders_changelog", changelog));
    }
    return new ReaderViewCheck().check(context.build());
  }

  /** Commit points: the cuts as prefix lengths, in order, ending with the whole history. */
  private static List<Integer> points(Fixture source, List<Integer> cuts) {
    int size = source.events.size();
    List<Integer> points = new ArrayList<>();
    cuts.forEach(cut -> points.add(cut % (size + 1)));
    points.sort(Integer::compare);
    points.add(size);
    return points;
  }

  private static List<List<Row>> currentStates(Fixture source, List<Integer> points) {
    List<List<Row>> states = new ArrayList<>();
    points.forEach(point -> states.add(List.copyOf(fold(source.events, point).values())));
    return states;
  }

  private static List<List<ChangeEvent>> changelogStates(Fixture source, List<Integer> points) {
    List<List<ChangeEvent>> states = new ArrayList<>();
    points.forEach(point -> states.add(Fixture.asSink(source.events.subList(0, point))));
    return states;
  }

  static Map<RowKey, Row> fold(List<ChangeEvent> events, int prefix) {
    Map<RowKey, Row> rows = new LinkedHashMap<>();
    for (ChangeEvent event : events.subList(0, prefix)) {
      if (event.op() == ChangeOp.DELETE) {
        rows.remove(event.key());
      } else {
        rows.put(event.key(), event.row());
      }
    }
    return rows;
  }

  private static boolean deletedAfter(List<ChangeEvent> events, int prefix, RowKey key) {
    return events.subList(prefix, events.size()).stream()
        .anyMatch(event -> event.op() == ChangeOp.DELETE && event.key().equals(key));
  }
}
