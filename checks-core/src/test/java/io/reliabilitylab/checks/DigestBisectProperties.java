package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * Digest-and-bisect reports exactly what the full diff reports: the same counts and the same
 * samples in the same order, on sides that are missing, adding, changing and repeating rows, with
 * keys clustered or spread so that buckets hold one row or many and bisection goes down to single
 * keys. With a weak row hash that forces digest collisions, it reports nothing the full diff does
 * not, and misses only differences hidden in a bucket whose weak digests collide.
 */
class DigestBisectProperties {

  private static final ToLongFunction<Row> STRONG = CanonicalForm::rowHash;

  /** Only the key and the amount count: rows that differ in status collide. */
  private static final ToLongFunction<Row> WEAK =
      row -> (Long) row.get("order_id") * 31 + (Long) row.get("amount_cents");

  private final Path work;

  DigestBisectProperties() throws IOException {
    work = Files.createTempDirectory("srl-bisect-properties");
  }

  @AfterProperty
  void removeWorkDirectory() throws IOException {
    try (var left = Files.list(work)) {
      left.forEach(path -> path.toFile().delete());
    }
    Files.deleteIfExists(work);
  }

  /** Unique keys: clustered near zero, spread over a wide range, or near the ends of a long. */
  @Provide
  Arbitrary<List<Row>> sources() {
    Arbitrary<Long> key =
        Arbitraries.oneOf(
            Arbitraries.longs().between(0, 40),
            Arbitraries.longs().between(-1_000_000, 1_000_000),
            Arbitraries.longs().between(Long.MAX_VALUE / 2 - 20, Long.MAX_VALUE / 2));
    Arbitrary<Row> row =
        Combinators.combine(
                key, Arbitraries.of("created", "paid"), Arbitraries.longs().between(0, 2))
            .as((id, status, amount) -> Fixture.row(id, Math.floorMod(id, 1000L), status, amount));
    return row.list()
        .ofMaxSize(60)
        .map(
            rows -> {
              Map<Long, Row> unique = new LinkedHashMap<>();
              rows.forEach(r -> unique.putIfAbsent((Long) r.get("order_id"), r));
              return new ArrayList<>(unique.values());
            });
  }

  /** A sink derived from the source: rows dropped, changed, repeated and added. */
  @Provide
  Arbitrary<List<Integer>> edits() {
    return Arbitraries.integers().between(0, 9).list().ofMaxSize(60);
  }

  @Property(tries = 200)
  void reportsExactlyWhatTheFullDiffReports(
      @ForAll("sources") List<Row> source,
      @ForAll("edits") List<Integer> edits,
      @ForAll @IntRange(min = 1, max = 5) int leafRows) {
    List<Row> sink = sink(source, edits);

    CheckResult full = fullDiff(source, sink);
    Comparison digested = digested(source, sink, STRONG, leafRows);

    assertThat(digested.result.evidence().counts()).isEqualTo(full.evidence().counts());
    assertThat(digested.result.evidence().samples()).isEqualTo(full.evidence().samples());
    assertThat(digested.result.verdict()).isEqualTo(full.verdict());
  }

  @Property(tries = 100)
  void theCheckTakesTheDigestPathAndAgreesWithTheFullDiff(
      @ForAll("sources") List<Row> source, @ForAll("edits") List<Integer> edits) {
    List<Row> sink = sink(source, edits);

    CheckResult full = fullDiff(source, sink);
    CheckResult viaCheck =
        new SnapshotDiffCheck()
            .check(
                Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                    .expectedCurrent(InMemoryDigests.rowSet("expected", source, STRONG, true))
                    .actualCurrent(InMemoryDigests.rowSet("actual", sink, STRONG, false))
                    .sampleLimit(1000)
                    .build());

    assertThat(viaCheck.evidence().facts())
        .containsEntry(SnapshotDiffCheck.METHOD, SnapshotDiffCheck.DIGEST_AND_BISECT);
    assertThat(viaCheck.evidence().counts()).isEqualTo(full.evidence().counts());
    assertThat(viaCheck.evidence().samples()).isEqualTo(full.evidence().samples());
    assertThat(
            viaCheck
                .evidence()
                .digests()
                .get("expected")
                .equals(viaCheck.evidence().digests().get("actual")))
        .isEqualTo(full.evidence().counts().get("diff_count") == 0);
  }

  @Property(tries = 150)
  void aWeakHashHidesDifferencesOnlyBehindCollidingBucketsAndInventsNone(
      @ForAll("sources") List<Row> source,
      @ForAll("edits") List<Integer> edits,
      @ForAll @IntRange(min = 1, max = 5) int leafRows) {
    List<Row> sink = sink(source, edits);

    CheckResult full = fullDiff(source, sink);
    CheckResult weak = digested(source, sink, WEAK, leafRows).result;

    Set<String> fullSubjects = subjects(full);
    assertThat(subjects(weak)).isSubsetOf(fullSubjects);
    assertThat(weak.evidence().counts().get("expected_rows"))
        .isEqualTo(full.evidence().counts().get("expected_rows"));
    assertThat(weak.evidence().counts().get("actual_rows"))
        .isEqualTo(full.evidence().counts().get("actual_rows"));
    // Whatever it missed, the weak hash could not tell apart: the same key, the same amount,
    // the same number of rows.
    Set<String> missed = new HashSet<>(fullSubjects);
    missed.removeAll(subjects(weak));
    for (String subject : missed) {
      long key = Long.parseLong(subject.substring("order_id=".length()));
      assertThat(weakImage(source, key)).isEqualTo(weakImage(sink, key));
    }
  }

  @Property(tries = 50)
  void sidesThatBothMayRepeatAKeyFallBackToTheFullDiff(
      @ForAll("sources") List<Row> source, @ForAll("edits") List<Integer> edits) {
    List<Row> sink = sink(source, edits);
    CheckResult result =
        new SnapshotDiffCheck()
            .check(
                Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                    .expectedCurrent(InMemoryDigests.rowSet("expected", sink, STRONG, false))
                    .actualCurrent(InMemoryDigests.rowSet("actual", sink, STRONG, false))
                    .build());
    assertThat(result.evidence().facts().get(SnapshotDiffCheck.METHOD))
        .startsWith("full diff: digests cannot decide");
    assertThat(result.evidence().counts().get("duplicate_keys_actual"))
        .isEqualTo(fullDiff(sink, sink).evidence().counts().get("duplicate_keys_actual"));
  }

  private static List<Long> weakImage(List<Row> rows, long key) {
    return rows.stream()
        .filter(r -> r.get("order_id").equals(key))
        .map(WEAK::applyAsLong)
        .sorted()
        .toList();
  }

  private static Set<String> subjects(CheckResult result) {
    Set<String> subjects = new HashSet<>();
    for (EvidenceSample sample : result.evidence().samples()) {
      subjects.add(sample.subject());
    }
    return subjects;
  }

  /** Applies edits in turn to the source's rows: 0 drop, 1 change, 2 repeat, 3 add, else keep. */
  private static List<Row> sink(List<Row> source, List<Integer> edits) {
    List<Row> sink = new ArrayList<>();
    for (int i = 0; i < source.size(); i++) {
      Row row = source.get(i);
      int edit = i < edits.size() ? edits.get(i) : 9;
      long key = (Long) row.get("order_id");
      switch (edit) {
        case 0 -> {}
        case 1 ->
            sink.add(
                Fixture.row(
                    key, Math.floorMod(key, 1000L), "changed", (Long) row.get("amount_cents")));
        case 2 -> {
          sink.add(row);
          sink.add(row);
        }
        case 3 -> {
          sink.add(row);
          if (key != Long.MAX_VALUE) {
            sink.add(Fixture.row(key + 1, Math.floorMod(key + 1, 1000L), "added", 0));
          }
        }
        default -> sink.add(row);
      }
    }
    return sink;
  }

  private CheckResult fullDiff(List<Row> expected, List<Row> actual) {
    return new SnapshotDiffCheck()
        .check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(Fixture.rows("expected", expected))
                .actualCurrent(Fixture.rows("actual", actual))
                .sampleLimit(1000)
                .build());
  }

  private record Comparison(CheckResult result) {}

  private Comparison digested(
      List<Row> expected, List<Row> actual, ToLongFunction<Row> hash, int leafRows) {
    var context =
        Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
            .expectedCurrent(Fixture.rows("expected", expected))
            .actualCurrent(Fixture.rows("actual", actual))
            .sampleLimit(1000)
            .build();
    var evidence = io.reliabilitylab.spi.check.Evidence.builder(1000);
    var sides = new RowDiff.Sides("expected", "actual", "expected", "actual");
    var bisect =
        new DigestBisect(
            new InMemoryDigests(expected, hash, true),
            new InMemoryDigests(actual, hash, false),
            Fixture.SCHEMA,
            leafRows);
    RowDiff.Tally tally = bisect.compare(context, sides, evidence).orElseThrow().tally();
    RowDiff.record(tally.counts(), evidence);
    CheckResult result =
        tally.counts().diffCount() == 0
            ? CheckResult.passed(SnapshotDiffCheck.NAME, "same", evidence.build())
            : CheckResult.failed(SnapshotDiffCheck.NAME, "differ", evidence.build());
    return new Comparison(result);
  }
}
