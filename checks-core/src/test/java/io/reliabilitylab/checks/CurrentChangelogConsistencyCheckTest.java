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
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CurrentChangelogConsistencyCheckTest {

  @TempDir Path work;

  private final CurrentChangelogConsistencyCheck check = new CurrentChangelogConsistencyCheck();
  private final Fixture fixture = Fixture.standard();

  private CheckResult consistency(List<ChangeEvent> changelog, List<Row> current) {
    return consistency(DeliverySemantics.EXACTLY_ONCE, changelog, current, 250_000);
  }

  private CheckResult consistency(
      DeliverySemantics semantics, List<ChangeEvent> changelog, List<Row> current, int memory) {
    return check.check(
        Fixture.context(semantics, work)
            .actualChangelog(log("iceberg orders_changelog", changelog))
            .actualCurrent(rows("iceberg orders_current", current))
            .checkpointId(41L)
            .maxRowsInMemory(memory)
            .build());
  }

  private List<ChangeEvent> sink() {
    return new ArrayList<>(asSink(fixture.changelog()));
  }

  private static int indexOf(List<ChangeEvent> events, ChangeOp op, long eventId) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).op() == op && events.get(i).eventId() == eventId) {
        return i;
      }
    }
    throw new AssertionError("no " + op + " " + eventId);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 250_000})
  void faithfulSinkPasses(int memory) {
    CheckResult result =
        consistency(DeliverySemantics.EXACTLY_ONCE, sink(), fixture.currentRows(), memory);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.summary()).contains("at checkpoint 41");
    assertThat(result.evidence().facts()).containsEntry("checkpoint_id", "41");
    assertThat(result.evidence().count("expected_rows")).isEqualTo(3);
    assertThat(result.evidence().count("diff_count")).isZero();
    assertThat(result.evidence().digests().get("changelog_fold"))
        .isEqualTo(result.evidence().digests().get("current"))
        .isEqualTo(SnapshotDiffCheckTest.digestOf(fixture.currentRows()));
  }

  @ParameterizedTest
  @EnumSource(DeliverySemantics.class)
  void duplicatedEventsFoldIdempotently(DeliverySemantics semantics) {
    List<ChangeEvent> changelog = sink();
    changelog.add(changelog.get(indexOf(changelog, ChangeOp.UPDATE, 6)));
    changelog.add(changelog.get(indexOf(changelog, ChangeOp.DELETE, 4)));

    CheckResult result = consistency(semantics, changelog, fixture.currentRows(), 2);

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void snapshotReadsFoldLikeInserts() {
    List<ChangeEvent> changelog = sink();
    changelog.remove(indexOf(changelog, ChangeOp.UPDATE, 3));
    changelog.remove(indexOf(changelog, ChangeOp.CREATE, 1));
    changelog.add(Fixture.read(row(1, 3, "paid", 100), SourcePosition.of("sink", 1, 0)));

    assertThat(consistency(changelog, fixture.currentRows()).verdict()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void lostDeleteInTheCurrentTableIsUnexpected() {
    List<Row> current = new ArrayList<>(fixture.currentRows());
    current.add(row(3, 4, "created", 300));

    CheckResult result = consistency(sink(), current);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "order_id=3"));
  }

  @Test
  void lostDeleteInTheChangelogIsMissingFromTheCurrentTable() {
    List<ChangeEvent> changelog = sink();
    changelog.remove(indexOf(changelog, ChangeOp.DELETE, 4));

    CheckResult result = consistency(changelog, fixture.currentRows());

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("missing", "order_id=3"));
    assertThat(result.evidence().samples().get(0).note()).contains("fold");
  }

  @Test
  void swappedUpdatesLeaveTheWrongLastVersion() {
    List<ChangeEvent> changelog = sink();
    int u3 = indexOf(changelog, ChangeOp.UPDATE, 3);
    int u6 = indexOf(changelog, ChangeOp.UPDATE, 6);
    SourcePosition p3 = changelog.get(u3).position();
    changelog.set(u3, Fixture.at(changelog.get(u3), changelog.get(u6).position()));
    changelog.set(u6, Fixture.at(changelog.get(u6), p3));

    CheckResult result = consistency(changelog, fixture.currentRows());

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.subject()).isEqualTo("order_id=1");
    assertThat(sample.differingColumns()).containsExactly("status", "event_id", "updated_at");
  }

  @Test
  void staleUpdateInTheCurrentTableIsAMismatch() {
    List<Row> current = Fixture.replaced(fixture.currentRows(), 1, r -> row(2, 2, "created", 200));

    CheckResult result = consistency(sink(), current);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("mismatched", "order_id=2"));
  }

  @Test
  void corruptedColumnInTheCurrentTableIsNamed() {
    List<Row> current =
        Fixture.replaced(fixture.currentRows(), 0, r -> r.with("customer_id", 999L));

    CheckResult result = consistency(sink(), current);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples().get(0).differingColumns())
        .containsExactly("customer_id");
  }

  @Test
  void corruptedEarlierChangelogVersionIsNotThisChecksConcern() {
    // Only the last version of a key reaches the fold; changelog-completeness catches this one.
    List<ChangeEvent> changelog = sink();
    int u3 = indexOf(changelog, ChangeOp.UPDATE, 3);
    changelog.set(
        u3, Fixture.withRow(changelog.get(u3), changelog.get(u3).row().with("status", "lost")));

    assertThat(consistency(changelog, fixture.currentRows()).verdict()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void missingInputIsInconclusive() {
    CheckResult noChangelog =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualCurrent(rows("sink", fixture.currentRows()))
                .build());
    CheckResult noCurrent =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualChangelog(log("sink", sink()))
                .build());

    assertThat(noChangelog.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(noCurrent.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void unreadableCurrentIsInconclusive() {
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualChangelog(log("sink", sink()))
                .actualCurrent(Fixture.failing("orders_current"))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("orders_current").contains("connection reset");
  }
}
