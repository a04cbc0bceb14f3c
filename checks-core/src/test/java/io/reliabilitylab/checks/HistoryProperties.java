package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.SourcePosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;

/** Random histories of a few keys: faithful inputs pass, each mutation is caught and named. */
class HistoryProperties {

  private static final List<ReconciliationCheck> ALL =
      List.of(
          new SnapshotDiffCheck(),
          new EventIdAuditCheck(),
          new ChangelogCompletenessCheck(),
          new NoDuplicateKeysCheck(),
          new CurrentChangelogConsistencyCheck());

  private final Path work;

  HistoryProperties() throws IOException {
    work = Files.createTempDirectory("srl-history-properties");
  }

  @AfterProperty
  void removeWorkDirectory() throws IOException {
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("spill files are deleted").isEmpty();
    }
    Files.deleteIfExists(work);
  }

  /** Each step: key = step % 6; absent keys are inserted, present ones deleted or updated. */
  static Fixture history(List<Integer> steps) {
    Fixture fixture = new Fixture();
    Set<Long> present = new HashSet<>();
    long eventId = 1;
    String[] statuses = {"paid", "packed", "shipped"};
    for (int i = 0; i < steps.size(); i++) {
      long key = steps.get(i) % 6;
      int action = steps.get(i) / 6;
      if (present.add(key)) {
        fixture.insert(key, eventId++, "created", i);
      } else if (action == 0) {
        fixture.delete(key);
        present.remove(key);
      } else {
        fixture.update(key, eventId++, statuses[action - 1], i);
      }
    }
    return fixture;
  }

  private CheckContext.Builder context(
      Fixture fixture, DeliverySemantics semantics, int memory, List<ChangeEvent> sink) {
    return fixture
        .faithful(semantics, work)
        .actualChangelog(Fixture.log("sink changelog", sink))
        .maxRowsInMemory(memory);
  }

  @Property(tries = 150)
  void faithfulHistoryPassesEveryCheck(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll DeliverySemantics semantics,
      @ForAll @IntRange(min = 4, max = 64) int memory) {
    Fixture fixture = history(steps);
    CheckContext context =
        context(fixture, semantics, memory, Fixture.asSink(fixture.changelog())).build();

    for (ReconciliationCheck check : ALL) {
      CheckResult result = check.check(context);
      assertThat(result.verdict())
          .as(check.name() + ": " + result.summary())
          .isEqualTo(Verdict.PASSED);
    }
  }

  @Property(tries = 150)
  void droppedEventIsCaughtAndNamed(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll int pick,
      @ForAll DeliverySemantics semantics) {
    Fixture fixture = history(steps);
    List<ChangeEvent> sink = new ArrayList<>(Fixture.asSink(fixture.changelog()));
    ChangeEvent dropped = sink.remove(Math.floorMod(pick, sink.size()));
    CheckContext context = context(fixture, semantics, 12, sink).build();

    for (ReconciliationCheck check :
        List.of(new ChangelogCompletenessCheck(), new EventIdAuditCheck())) {
      CheckResult result = check.check(context);
      assertThat(result.verdict()).as(check.name()).isEqualTo(Verdict.FAILED);
      assertThat(result.evidence().samples())
          .as(check.name())
          .anySatisfy(
              sample -> {
                assertThat(sample.kind()).isEqualTo("missing");
                assertThat(sample.subject()).isEqualTo("event_id=" + dropped.eventId());
                assertThat(sample.note()).startsWith(dropped.identity() + " of order_id=");
              });
    }
  }

  @Property(tries = 150)
  void duplicatedEventIsCountedOnceAndJudgedBySemantics(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll int pick,
      @ForAll DeliverySemantics semantics) {
    Fixture fixture = history(steps);
    List<ChangeEvent> sink = new ArrayList<>(Fixture.asSink(fixture.changelog()));
    ChangeEvent duplicated = sink.get(Math.floorMod(pick, sink.size()));
    sink.add(duplicated);
    CheckContext context = context(fixture, semantics, 12, sink).build();
    Verdict changelogVerdict =
        semantics == DeliverySemantics.EXACTLY_ONCE ? Verdict.FAILED : Verdict.PASSED;

    CheckResult completeness = new ChangelogCompletenessCheck().check(context);
    assertThat(completeness.verdict()).isEqualTo(changelogVerdict);
    assertThat(completeness.evidence().count("duplicates")).isEqualTo(1);
    CheckResult audit = new EventIdAuditCheck().check(context);
    assertThat(audit.verdict()).isEqualTo(changelogVerdict);
    assertThat(audit.evidence().count("duplicate_occurrence_count")).isEqualTo(1);
    assertThat(audit.evidence().samples())
        .extracting(EvidenceSample::subject)
        .containsExactly("event_id=" + duplicated.eventId());
    assertThat(new CurrentChangelogConsistencyCheck().check(context).verdict())
        .isEqualTo(Verdict.PASSED);
    assertThat(new SnapshotDiffCheck().check(context).verdict()).isEqualTo(Verdict.PASSED);
  }

  @Property(tries = 150)
  void snapshotReadOfAnyVersionFollowedByTheRestPasses(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 23) Integer> steps,
      @ForAll int pick,
      @ForAll DeliverySemantics semantics) {
    Fixture fixture = history(steps);
    List<ChangeEvent> events = fixture.changelog();
    ChangeEvent version = events.get(Math.floorMod(pick, events.size()));
    Assume.that(version.op() != ChangeOp.DELETE);
    // The read folds every earlier event of its key and the version itself.
    List<ChangeEvent> sink = new ArrayList<>();
    boolean folded = true;
    for (ChangeEvent event : Fixture.asSink(events)) {
      boolean sameKey = event.key().equals(version.key());
      if (sameKey && folded) {
        if (event.op() == version.op() && event.eventId() == version.eventId()) {
          folded = false;
        }
        continue;
      }
      sink.add(event);
    }
    sink.add(Fixture.read(version.row(), SourcePosition.of("sink", 0, 0)));
    CheckContext context = context(fixture, semantics, 12, sink).build();

    for (ReconciliationCheck check :
        List.of(
            new ChangelogCompletenessCheck(),
            new EventIdAuditCheck(),
            new CurrentChangelogConsistencyCheck())) {
      CheckResult result = check.check(context);
      assertThat(result.verdict())
          .as(check.name() + ": " + result.summary())
          .isEqualTo(Verdict.PASSED);
    }
  }
}
