package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterProperty;

class SnapshotDiffProperties {

  private final Path work;

  SnapshotDiffProperties() throws IOException {
    work = Files.createTempDirectory("srl-diff-properties");
  }

  @AfterProperty
  void removeWorkDirectory() throws IOException {
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("spill files are deleted").isEmpty();
    }
    Files.deleteIfExists(work);
  }

  /** Small key and value ranges, so that sides overlap, differ and repeat keys. */
  @Provide
  Arbitrary<List<Row>> rowSets() {
    Arbitrary<Row> row =
        Combinators.combine(
                Arbitraries.longs().between(0, 15),
                Arbitraries.of("created", "paid", "shipped"),
                Arbitraries.longs().between(0, 2))
            .as((id, status, amount) -> Fixture.row(id, id, status, amount));
    return row.list().ofMaxSize(25);
  }

  @Property(tries = 300)
  void diffEqualsANaiveInMemoryDiff(
      @ForAll("rowSets") List<Row> expected,
      @ForAll("rowSets") List<Row> actual,
      @ForAll @IntRange(min = 1, max = 12) int maxRowsInMemory) {
    CheckResult result =
        new SnapshotDiffCheck()
            .check(
                Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                    .expectedCurrent(Fixture.rows("expected", expected))
                    .actualCurrent(Fixture.rows("actual", actual))
                    .maxRowsInMemory(maxRowsInMemory)
                    .sampleLimit(1000)
                    .build());

    Map<Long, List<Row>> want = byKey(expected);
    Map<Long, List<Row>> got = byKey(actual);
    Set<Long> keys = new HashSet<>(want.keySet());
    keys.addAll(got.keySet());
    long missing = 0;
    long unexpected = 0;
    long mismatched = 0;
    long duplicatesExpected = 0;
    long duplicatesActual = 0;
    for (Long key : keys) {
      List<Row> w = want.getOrDefault(key, List.of());
      List<Row> g = got.getOrDefault(key, List.of());
      if (g.isEmpty()) {
        missing++;
      } else if (w.isEmpty()) {
        unexpected++;
      } else if (!new HashSet<>(w).equals(new HashSet<>(g))) {
        mismatched++;
      }
      duplicatesExpected += w.size() > 1 ? 1 : 0;
      duplicatesActual += g.size() > 1 ? 1 : 0;
    }
    long diffCount = missing + unexpected + mismatched + duplicatesExpected + duplicatesActual;

    assertThat(result.evidence().counts())
        .containsEntry("expected_rows", (long) expected.size())
        .containsEntry("actual_rows", (long) actual.size())
        .containsEntry("missing", missing)
        .containsEntry("unexpected", unexpected)
        .containsEntry("mismatched", mismatched)
        .containsEntry("duplicate_keys_expected", duplicatesExpected)
        .containsEntry("duplicate_keys_actual", duplicatesActual)
        .containsEntry("diff_count", diffCount);
    assertThat(result.verdict()).isEqualTo(diffCount == 0 ? Verdict.PASSED : Verdict.FAILED);
    List<String> subjects =
        result.evidence().samples().stream().map(EvidenceSample::subject).toList();
    assertThat(subjects)
        .as("samples in key order")
        .isSortedAccordingTo(
            (a, b) -> Long.compare(Long.parseLong(a.substring(9)), Long.parseLong(b.substring(9))));
    assertThat(result.evidence().digests().get("expected"))
        .isEqualTo(SnapshotDiffCheckTest.digestOf(sortedForDigest(expected)));
  }

  @Property(tries = 200)
  void sameRowsInAnyOrderPass(
      @ForAll("rowSets") List<Row> rows, @ForAll @IntRange(min = 1, max = 12) int maxRowsInMemory) {
    List<Row> unique = new ArrayList<>(byKey(rows).values().stream().map(l -> l.get(0)).toList());
    List<Row> shuffled = new ArrayList<>(unique);
    Collections.rotate(shuffled, maxRowsInMemory);

    CheckResult result =
        new SnapshotDiffCheck()
            .check(
                Fixture.context(DeliverySemantics.AT_LEAST_ONCE, work)
                    .expectedCurrent(Fixture.rows("expected", unique))
                    .actualCurrent(Fixture.rows("actual", shuffled))
                    .maxRowsInMemory(maxRowsInMemory)
                    .build());

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
  }

  private static Map<Long, List<Row>> byKey(List<Row> rows) {
    Map<Long, List<Row>> map = new TreeMap<>();
    for (Row row : rows) {
      map.computeIfAbsent(
              (Long) Objects.requireNonNull(row.get("order_id")), k -> new ArrayList<>())
          .add(row);
    }
    return map;
  }

  private static List<Row> sortedForDigest(List<Row> rows) {
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Orderings.rowsByKeyThenValues(Fixture.SCHEMA));
    return sorted;
  }
}
