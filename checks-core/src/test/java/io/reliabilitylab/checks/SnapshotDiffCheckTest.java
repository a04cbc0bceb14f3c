package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.Fixture.row;
import static io.reliabilitylab.checks.Fixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SnapshotDiffCheckTest {

  @TempDir Path work;

  private final SnapshotDiffCheck check = new SnapshotDiffCheck();
  private final Fixture fixture = Fixture.standard();

  private CheckResult diff(List<Row> actual) {
    return diff(DeliverySemantics.EXACTLY_ONCE, actual, 250_000);
  }

  private CheckResult diff(DeliverySemantics semantics, List<Row> actual, int maxRowsInMemory) {
    return check.check(
        Fixture.context(semantics, work)
            .expectedCurrent(rows("source orders", fixture.currentRows()))
            .actualCurrent(rows("iceberg orders_current", actual))
            .checkpointId(12L)
            .maxRowsInMemory(maxRowsInMemory)
            .build());
  }

  @ParameterizedTest
  @EnumSource(DeliverySemantics.class)
  void faithfulCurrentTablePasses(DeliverySemantics semantics) {
    CheckResult result = diff(semantics, fixture.currentRows(), 250_000);

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("expected_rows", 3L)
        .containsEntry("actual_rows", 3L)
        .containsEntry("diff_count", 0L);
    assertThat(result.evidence().digests().get("expected"))
        .isEqualTo(result.evidence().digests().get("actual"))
        .isEqualTo(digestOf(fixture.currentRows()));
    assertThat(result.evidence().facts())
        .containsEntry("expected", "source orders")
        .containsEntry("actual", "iceberg orders_current")
        .containsEntry("checkpoint_id", "12");
    assertThat(result.evidence().samples()).isEmpty();
  }

  @Test
  void missingRowFailsNamingTheKey() {
    List<Row> actual = new ArrayList<>(fixture.currentRows());
    actual.removeIf(r -> r.get("order_id").equals(2L));

    CheckResult result = diff(actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("missing")).isEqualTo(1);
    assertThat(result.evidence().count("diff_count")).isEqualTo(1);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.kind()).isEqualTo("missing");
    assertThat(sample.subject()).isEqualTo("order_id=2");
    assertThat(sample.expected()).containsEntry("status", "paid");
    assertThat(sample.actual()).isEmpty();
  }

  @Test
  void lostDeleteShowsAsUnexpectedRow() {
    List<Row> actual = new ArrayList<>(fixture.currentRows());
    actual.add(row(3, 4, "created", 300));

    CheckResult result = diff(actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("unexpected")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "order_id=3"));
  }

  @Test
  void staleUpdateShowsAsMismatchWithTheDifferingColumns() {
    List<Row> actual = Fixture.replaced(fixture.currentRows(), 0, r -> row(1, 3, "paid", 100));

    CheckResult result = diff(actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("mismatched")).isEqualTo(1);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.kind()).isEqualTo("mismatched");
    assertThat(sample.subject()).isEqualTo("order_id=1");
    assertThat(sample.differingColumns()).containsExactly("status", "event_id", "updated_at");
    assertThat(sample.expected()).containsEntry("status", "packed");
    assertThat(sample.actual()).containsEntry("status", "paid");
  }

  @Test
  void corruptedColumnIsNamed() {
    List<Row> actual =
        Fixture.replaced(fixture.currentRows(), 2, r -> r.with("amount_cents", 451L));

    CheckResult result = diff(actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::subject, EvidenceSample::differingColumns)
        .containsExactly(tuple("order_id=4", List.of("amount_cents")));
    assertThat(result.evidence().digests().get("actual"))
        .isNotEqualTo(result.evidence().digests().get("expected"));
  }

  @ParameterizedTest
  @EnumSource(DeliverySemantics.class)
  void duplicatedKeyFailsUnderBothSemantics(DeliverySemantics semantics) {
    List<Row> actual = new ArrayList<>(fixture.currentRows());
    actual.add(fixture.currentRows().get(1));

    CheckResult result = diff(semantics, actual, 250_000);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("duplicate_keys_actual")).isEqualTo(1);
    assertThat(result.evidence().count("mismatched")).isZero();
    assertThat(result.evidence().count("diff_count")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("duplicate_key", "order_id=2"));
  }

  @Test
  void samplesAreInKeyOrderAndCapped() {
    List<Row> expected = new ArrayList<>();
    for (long id = 1; id <= 30; id++) {
      expected.add(row(id, id, "created", id));
    }
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(rows("source", expected))
                .actualCurrent(rows("sink", List.of()))
                .sampleLimit(5)
                .build());

    assertThat(result.evidence().count("missing")).isEqualTo(30);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::subject)
        .containsExactly("order_id=1", "order_id=2", "order_id=3", "order_id=4", "order_id=5");
    assertThat(result.evidence().samplesOmitted()).isEqualTo(25);
  }

  @Test
  void spillingGivesTheSameEvidenceAndLeavesNoFiles() throws IOException {
    List<Row> actual = new ArrayList<>(fixture.currentRows());
    actual.remove(0);
    actual.add(row(9, 9, "created", 900));

    CheckResult inMemory = diff(DeliverySemantics.EXACTLY_ONCE, actual, 250_000);
    CheckResult spilled = diff(DeliverySemantics.EXACTLY_ONCE, actual, 1);

    assertThat(spilled).isEqualTo(inMemory);
    assertThat(spilled.verdict()).isEqualTo(Verdict.FAILED);
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void sameContextGivesSameResult() {
    List<Row> actual = Fixture.replaced(fixture.currentRows(), 1, r -> r.with("status", "lost"));
    CheckContext context =
        Fixture.context(DeliverySemantics.AT_LEAST_ONCE, work)
            .expectedCurrent(rows("source", fixture.currentRows()))
            .actualCurrent(rows("sink", actual))
            .build();

    assertThat(check.check(context)).isEqualTo(check.check(context));
  }

  @Test
  void missingInputIsInconclusive() {
    CheckResult noActual =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(rows("source", fixture.currentRows()))
                .build());
    CheckResult noExpected =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualCurrent(rows("sink", fixture.currentRows()))
                .build());

    assertThat(noActual.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noActual.summary()).contains("actualCurrent");
    assertThat(noExpected.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noExpected.summary()).contains("expectedCurrent");
  }

  @Test
  void unreadableInputIsInconclusiveWithTheReason() throws IOException {
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(rows("source", fixture.currentRows()))
                .actualCurrent(Fixture.failing("iceberg orders_current @ snapshot 7"))
                .maxRowsInMemory(1)
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary())
        .contains("iceberg orders_current @ snapshot 7")
        .contains("connection reset by peer");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("spill files removed after the failure").isEmpty();
    }
  }

  @Test
  void differentColumnsAreInconclusiveNamingThem() {
    TableSchema other =
        new TableSchema(
            "orders_current",
            List.of(
                new Column("order_id", ColumnType.BIGINT),
                new Column("status", ColumnType.VARCHAR),
                new Column("note", ColumnType.VARCHAR)),
            List.of("order_id"),
            null);
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(rows("source", fixture.currentRows()))
                .actualCurrent(RowSet.of(other, "sink", List.of(other.row(1L, "paid", "x"))))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("note").contains("amount_cents");
  }

  static String digestOf(List<Row> sortedRows) {
    StringBuilder text = new StringBuilder();
    for (Row row : sortedRows) {
      text.append(CanonicalForm.line(row));
    }
    return CanonicalForm.sha256(text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
