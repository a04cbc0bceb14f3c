package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.Fixture.asSink;
import static io.reliabilitylab.checks.Fixture.log;
import static io.reliabilitylab.checks.Fixture.row;
import static io.reliabilitylab.checks.Fixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventIdAuditCheckTest {

  @TempDir Path work;

  private final EventIdAuditCheck check = new EventIdAuditCheck();
  private final Fixture fixture = Fixture.standard();

  private CheckResult audit(
      DeliverySemantics semantics, List<Row> actualCurrent, List<ChangeEvent> actualChangelog) {
    return check.check(
        fixture
            .faithful(semantics, work)
            .actualCurrent(rows("iceberg orders_current", actualCurrent))
            .actualChangelog(log("iceberg orders_changelog", actualChangelog))
            .build());
  }

  private List<ChangeEvent> sink() {
    return new ArrayList<>(asSink(fixture.changelog()));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 250_000})
  void faithfulInputsPass(int maxRowsInMemory) {
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      CheckResult result =
          check.check(fixture.faithful(semantics, work).maxRowsInMemory(maxRowsInMemory).build());

      assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
      assertThat(result.evidence().counts())
          .containsEntry("current_event_ids_expected", 3L)
          .containsEntry("current_event_ids_actual", 3L)
          .containsEntry("current_event_ids_missing", 0L)
          .containsEntry("current_event_ids_unexpected", 0L)
          .containsEntry("changelog_row_count", 9L)
          .containsEntry("changelog_distinct_identity_count", 9L)
          .containsEntry("duplicate_occurrence_count", 0L)
          .containsEntry("changelog_event_ids_missing", 0L)
          .containsEntry("changelog_event_ids_unexpected", 0L);
      assertThat(result.evidence().samples()).isEmpty();
    }
  }

  @Test
  void duplicateUnderAtLeastOnceIsCountedAndPasses() {
    List<ChangeEvent> actual = sink();
    actual.add(actual.get(4));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, fixture.currentRows(), actual);

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("changelog_row_count", 10L)
        .containsEntry("changelog_distinct_identity_count", 9L)
        .containsEntry("changelog_duplicate_identity_count", 1L)
        .containsEntry("duplicate_occurrence_count", 1L);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.kind()).isEqualTo("duplicate");
    assertThat(sample.subject()).isEqualTo("event_id=5");
    assertThat(sample.note()).contains("2 times").contains("op u").contains("order_id=2");
  }

  @Test
  void duplicateUnderExactlyOnceFails() {
    List<ChangeEvent> actual = sink();
    actual.add(actual.get(4));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, fixture.currentRows(), actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("duplicate_occurrence_count")).isEqualTo(1);
    assertThat(result.summary()).contains("EXACTLY_ONCE");
  }

  @Test
  void droppedChangelogEventIsMissing() {
    List<ChangeEvent> actual = sink();
    actual.remove(6); // u:6

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, fixture.currentRows(), actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("changelog_event_ids_missing")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("missing", "event_id=6"));
  }

  @Test
  void lostDeleteIsMissingFromChangelogAndUnexpectedInCurrent() {
    List<ChangeEvent> changelog = sink();
    changelog.remove(5); // d:4
    List<Row> current = new ArrayList<>(fixture.currentRows());
    current.add(row(3, 4, "created", 300));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, current, changelog);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("current_event_ids_unexpected")).isEqualTo(1);
    assertThat(result.evidence().count("changelog_event_ids_missing")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "event_id=4"), tuple("missing", "event_id=4"));
    assertThat(result.evidence().samples().get(1).note()).startsWith("d:4 of order_id=3");
  }

  @Test
  void staleUpdateInCurrentShowsMissingAndUnexpectedIds() {
    List<Row> current = Fixture.replaced(fixture.currentRows(), 0, r -> row(1, 3, "paid", 100));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, current, sink());

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "event_id=3"), tuple("missing", "event_id=6"));
    assertThat(result.evidence().samples().get(1).note()).contains("order_id=1");
  }

  @Test
  void snapshotReadExcusesTheVersionsItFolded() {
    List<ChangeEvent> actual = sink();
    actual.remove(2); // u:3
    actual.remove(0); // c:1
    actual.add(Fixture.read(row(1, 3, "paid", 100), SourcePosition.of("sink", 1, 0)));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, fixture.currentRows(), actual);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().count("changelog_events_folded_into_reads")).isEqualTo(2);
  }

  @Test
  void snapshotReadOfAnUnknownVersionIsUnexpected() {
    List<ChangeEvent> actual = sink();
    actual.add(Fixture.read(row(2, 42, "paid", 200), SourcePosition.of("sink", 1, 0)));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, fixture.currentRows(), actual);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("changelog_event_ids_unexpected")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "event_id=42"));
  }

  @Test
  void withoutExpectedChangelogOnlyDuplicatesAreAudited() {
    List<ChangeEvent> actual = sink();
    actual.add(actual.get(0));

    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualChangelog(log("sink", actual))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("duplicate_occurrence_count")).isEqualTo(1);
    assertThat(result.evidence().counts()).doesNotContainKey("changelog_event_ids_missing");
    assertThat(result.evidence().facts().get("current_audit")).contains("not audited");
  }

  @Test
  void neitherPartIsInconclusive() {
    CheckResult result = check.check(Fixture.context(DeliverySemantics.EXACTLY_ONCE, work).build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void aPartWithoutItsEventIdColumnMakesTheVerdictInconclusive() {
    TableSchema noEventId =
        new TableSchema(
            "orders", TableSchema.ORDERS.columns(), TableSchema.ORDERS.keyColumns(), null);
    List<Row> rows =
        fixture.currentRows().stream().map(r -> new Row(noEventId, r.values())).toList();

    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .expectedCurrent(RowSet.of(noEventId, "source", rows))
                .actualCurrent(RowSet.of(noEventId, "sink", rows))
                .actualChangelog(log("sink", sink()))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("no event id column");
  }

  @Test
  void onlyOneCurrentInputIsInconclusive() {
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualCurrent(rows("sink", fixture.currentRows()))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("expectedCurrent");
  }

  @Test
  void unreadableChangelogIsInconclusive() {
    var broken =
        new Changelog() {
          @Override
          public TableSchema schema() {
            return Fixture.SCHEMA;
          }

          @Override
          public String description() {
            return "iceberg orders_changelog";
          }

          @Override
          public CloseableIterator<ChangeEvent> open() {
            throw new IllegalStateException("table not found");
          }
        };

    CheckResult result =
        check.check(
            fixture.faithful(DeliverySemantics.EXACTLY_ONCE, work).actualChangelog(broken).build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("iceberg orders_changelog").contains("table not found");
  }

  @ParameterizedTest
  @EnumSource(DeliverySemantics.class)
  void sameContextGivesSameResult(DeliverySemantics semantics) {
    List<ChangeEvent> actual = sink();
    actual.remove(1);
    actual.add(actual.get(2));
    var context =
        fixture
            .faithful(semantics, work)
            .actualChangelog(log("sink", actual))
            .maxRowsInMemory(2)
            .build();

    assertThat(check.check(context)).isEqualTo(check.check(context));
  }

  @Test
  void eventOpsAreDistinctIdentities() {
    // c:4 and d:4 share an event id but are two envelopes: neither is a duplicate.
    assertThat(fixture.event(ChangeOp.CREATE, 4).eventId())
        .isEqualTo(fixture.event(ChangeOp.DELETE, 4).eventId());
    CheckResult result =
        check.check(fixture.faithful(DeliverySemantics.EXACTLY_ONCE, work).build());
    assertThat(result.evidence().count("changelog_duplicate_identity_count")).isZero();
  }
}
