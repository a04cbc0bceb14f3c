package io.reliabilitylab.harness.controls;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.ChangelogCompletenessCheck;
import io.reliabilitylab.checks.CurrentChangelogConsistencyCheck;
import io.reliabilitylab.checks.EventIdAuditCheck;
import io.reliabilitylab.checks.NoDuplicateKeysCheck;
import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.Workloads;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Negative controls (issue 2, item 7): for random workloads, a faithful pipeline output passes
 * every built-in check, and each mutation class is caught by exactly the checks the matrix in
 * {@link Mutation} names, with evidence that names the affected key or event. At least 1,000 tries
 * per mutation class and semantics.
 */
class NegativeControlProperties {

  private static final List<ReconciliationCheck> CHECKS =
      List.of(
          new SnapshotDiffCheck(),
          new EventIdAuditCheck(),
          new ChangelogCompletenessCheck(),
          new NoDuplicateKeysCheck(),
          new CurrentChangelogConsistencyCheck());

  private static Path workDirectory;

  @BeforeContainer
  static void createWorkDirectory() throws IOException {
    workDirectory = Files.createTempDirectory("srl-negative-controls");
  }

  @AfterContainer
  static void deleteWorkDirectory() throws IOException {
    try (var paths = Files.walk(workDirectory)) {
      paths.sorted((a, b) -> b.compareTo(a)).forEach(NegativeControlProperties::delete);
    }
  }

  @Provide
  Arbitrary<Workload> workloads() {
    return Workloads.workloads(1, 60);
  }

  @Provide
  Arbitrary<Workload> droppable() {
    return applicable(Mutation.DROP_EVENT);
  }

  @Provide
  Arbitrary<Workload> losable() {
    return applicable(Mutation.LOSE_EVENT_IN_PIPELINE);
  }

  @Provide
  Arbitrary<Workload> duplicable() {
    return applicable(Mutation.DUPLICATE_EVENT);
  }

  @Provide
  Arbitrary<Workload> swappable() {
    return applicable(Mutation.SWAP_UPDATES);
  }

  @Provide
  Arbitrary<Workload> withFinalDelete() {
    return applicable(Mutation.LOSE_DELETE);
  }

  @Provide
  Arbitrary<Workload> withFinalDeleteForCurrent() {
    return applicable(Mutation.LOSE_DELETE_IN_CURRENT);
  }

  @Provide
  Arbitrary<Workload> withFinalUpdate() {
    return applicable(Mutation.STALE_UPDATE);
  }

  @Provide
  Arbitrary<Workload> withCurrentRows() {
    return applicable(Mutation.CORRUPT_CURRENT_COLUMN);
  }

  @Provide
  Arbitrary<Workload> withEarlierVersions() {
    return applicable(Mutation.CORRUPT_EARLIER_CHANGELOG_VERSION);
  }

  /** Workloads that hold at least one place where {@code mutation} applies. */
  private static Arbitrary<Workload> applicable(Mutation mutation) {
    return Workloads.workloads(1, 60)
        .filter(w -> !mutation.candidates(PipelineOutput.faithful(Oracle.expect(w))).isEmpty());
  }

  @Property(tries = 1000)
  void faithfulOutputPassesEveryCheck(
      @ForAll("workloads") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll long scramble) {
    PipelineOutput out = PipelineOutput.faithful(Oracle.expect(workload));
    Map<String, CheckResult> results = runAll(out.context(semantics, scramble, workDirectory));
    assertThat(results.values())
        .as("faithful output of %s", workload)
        .allSatisfy(
            result -> assertThat(result.verdict()).as(describe(result)).isEqualTo(Verdict.PASSED));
  }

  /**
   * The snapshot phase folds: per key at most one {@code r} of some version v, then exactly the
   * events after v. A faithful output with such folds passes every check.
   */
  @Property(tries = 1000)
  void faithfulOutputWithSnapshotFoldsPassesEveryCheck(
      @ForAll("workloads") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll @IntRange(min = 0, max = 80) int snapshotAfterTransaction,
      @ForAll long scramble) {
    Expectation expectation = Oracle.expect(workload);
    PipelineOutput out = PipelineOutput.faithful(expectation);
    foldIntoReads(out, snapshotAfterTransaction);
    Map<String, CheckResult> results = runAll(out.context(semantics, scramble, workDirectory));
    assertThat(results.values())
        .allSatisfy(
            result -> assertThat(result.verdict()).as(describe(result)).isEqualTo(Verdict.PASSED));
  }

  @Property(tries = 1000)
  void droppedEventIsCaught(
      @ForAll("droppable") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.DROP_EVENT, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void eventLostInThePipelineIsCaught(
      @ForAll("losable") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.LOSE_EVENT_IN_PIPELINE, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void duplicatedEventFailsExactlyOnceAndIsCountedOnceAtLeastOnce(
      @ForAll("duplicable") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    Map<String, CheckResult> results =
        assertCaught(Mutation.DUPLICATE_EVENT, workload, semantics, choice, scramble);
    if (semantics == DeliverySemantics.AT_LEAST_ONCE) {
      assertThat(results.get("event-id-audit").evidence().count("duplicate_occurrence_count"))
          .as("one duplicated event counts once")
          .isEqualTo(1);
      assertThat(results.get("snapshot-diff").verdict()).isEqualTo(Verdict.PASSED);
    }
  }

  @Property(tries = 1000)
  void swappedUpdatesOfOneKeyAreCaught(
      @ForAll("swappable") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.SWAP_UPDATES, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void lostDeleteIsCaught(
      @ForAll("withFinalDelete") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.LOSE_DELETE, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void deleteNotAppliedToTheCurrentTableIsCaught(
      @ForAll("withFinalDeleteForCurrent") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.LOSE_DELETE_IN_CURRENT, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void staleUpdateIsCaught(
      @ForAll("withFinalUpdate") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.STALE_UPDATE, workload, semantics, choice, scramble);
  }

  @Property(tries = 1000)
  void corruptedCurrentColumnIsCaught(
      @ForAll("withCurrentRows") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    Map<String, CheckResult> results =
        assertCaught(Mutation.CORRUPT_CURRENT_COLUMN, workload, semantics, choice, scramble);
    assertThat(results.get("snapshot-diff").evidence().samples())
        .anySatisfy(
            sample -> assertThat(sample.differingColumns()).containsExactly("amount_cents"));
  }

  @Property(tries = 1000)
  void corruptedEarlierChangelogVersionIsCaught(
      @ForAll("withEarlierVersions") Workload workload,
      @ForAll DeliverySemantics semantics,
      @ForAll int choice,
      @ForAll long scramble) {
    assertCaught(Mutation.CORRUPT_EARLIER_CHANGELOG_VERSION, workload, semantics, choice, scramble);
  }

  /** Applies the mutation at the place {@code choice} picks and checks the matrix's verdicts. */
  private Map<String, CheckResult> assertCaught(
      Mutation mutation,
      Workload workload,
      DeliverySemantics semantics,
      int choice,
      long scramble) {
    PipelineOutput out = PipelineOutput.faithful(Oracle.expect(workload));
    List<Mutation.Candidate> candidates = mutation.candidates(out);
    Mutation.Candidate target = candidates.get(Math.floorMod(choice, candidates.size()));
    target.apply().run();
    Map<String, CheckResult> results = runAll(out.context(semantics, scramble, workDirectory));
    for (CheckResult result : results.values()) {
      String name = result.check();
      if (mutation.mustFail(semantics).contains(name)) {
        assertThat(result.verdict())
            .as("%s must fail on %s of %s", name, mutation, target)
            .isEqualTo(Verdict.FAILED);
        assertThat(mentions(result, target.key(), target.eventId()))
            .as("evidence of %s names %s: %s", name, target, describe(result))
            .isTrue();
      } else if (!mutation.mayFail.contains(name)) {
        assertThat(result.verdict())
            .as("%s must pass on %s of %s: %s", name, mutation, target, describe(result))
            .isEqualTo(Verdict.PASSED);
      } else {
        assertThat(result.verdict()).as(describe(result)).isNotEqualTo(Verdict.INCONCLUSIVE);
      }
    }
    return results;
  }

  private static Map<String, CheckResult> runAll(CheckContext context) {
    Map<String, CheckResult> results = new LinkedHashMap<>();
    for (ReconciliationCheck check : CHECKS) {
      results.put(check.name(), check.check(context));
    }
    return results;
  }

  private static boolean mentions(CheckResult result, RowKey key, long eventId) {
    for (EvidenceSample sample : result.evidence().samples()) {
      String text = sample.subject() + " " + sample.note();
      if (text.contains("order_id=" + key)
          || text.contains("event_id=" + eventId)
          || text.matches("(?s).*\\b[rcud]:" + eventId + "\\b.*")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Replaces, for every key alive after transaction {@code cut}, its events up to that transaction
   * with one {@code r} of the version it had then, placed before every binlog event.
   */
  private static void foldIntoReads(PipelineOutput out, int cut) {
    Map<RowKey, List<ChangeEvent>> byKey = out.eventsByKey();
    List<ChangeEvent> folded = new ArrayList<>();
    int readIndex = 0;
    for (Map.Entry<RowKey, List<ChangeEvent>> entry : byKey.entrySet()) {
      List<ChangeEvent> before = new ArrayList<>();
      List<ChangeEvent> after = new ArrayList<>();
      for (ChangeEvent event : entry.getValue()) {
        (transactionOf(event) <= cut ? before : after).add(event);
      }
      ChangeEvent version = before.isEmpty() ? null : before.get(before.size() - 1);
      if (version == null || version.op() == ChangeOp.DELETE) {
        folded.addAll(entry.getValue());
        continue;
      }
      folded.add(
          new ChangeEvent(
              ChangeOp.READ,
              version.eventId(),
              null,
              version.row(),
              SourcePosition.of("mysql-bin.000001", 0, readIndex++),
              version.sourceTimestamp()));
      folded.addAll(after);
    }
    out.changelog.clear();
    out.changelog.addAll(folded);
  }

  /** The oracle's transaction ordinal, recovered from the binlog-like offset. */
  private static long transactionOf(ChangeEvent event) {
    return (event.position().offset() - 4) / 211;
  }

  private static String describe(CheckResult result) {
    return result.check()
        + " "
        + result.verdict()
        + ": "
        + result.summary()
        + " "
        + result.evidence();
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
