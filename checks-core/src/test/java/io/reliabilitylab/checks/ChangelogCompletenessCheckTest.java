package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.Fixture.asSink;
import static io.reliabilitylab.checks.Fixture.log;
import static io.reliabilitylab.checks.Fixture.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChangelogCompletenessCheckTest {

  @TempDir Path work;

  private final ChangelogCompletenessCheck check = new ChangelogCompletenessCheck();
  private final Fixture fixture = Fixture.standard();

  private CheckResult audit(DeliverySemantics semantics, List<ChangeEvent> actual) {
    return audit(semantics, actual, 250_000);
  }

  private CheckResult audit(
      DeliverySemantics semantics, List<ChangeEvent> actual, int maxRowsInMemory) {
    return check.check(
        Fixture.context(semantics, work)
            .expectedChangelog(log("oracle changelog", fixture.changelog()))
            .actualChangelog(log("iceberg orders_changelog", actual))
            .maxRowsInMemory(maxRowsInMemory)
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
  void faithfulChangelogPassesUnderBothSemantics(int maxRowsInMemory) {
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      CheckResult result = audit(semantics, sink(), maxRowsInMemory);

      assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
      assertThat(result.evidence().counts())
          .containsEntry("expected_events", 9L)
          .containsEntry("actual_events", 9L)
          .containsEntry("keys", 4L)
          .containsEntry("violations", 0L)
          .containsEntry("duplicates", 0L);
      assertThat(result.evidence().samples()).isEmpty();
    }
  }

  @Test
  void droppedEventIsMissing() {
    List<ChangeEvent> actual = sink();
    actual.remove(indexOf(actual, ChangeOp.UPDATE, 5));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("missing")).isEqualTo(1);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.kind()).isEqualTo("missing");
    assertThat(sample.subject()).isEqualTo("event_id=5");
    assertThat(sample.note()).contains("u:5").contains("order_id=2");
  }

  @Test
  void duplicatedEventFailsUnderExactlyOnce() {
    List<ChangeEvent> actual = sink();
    actual.add(actual.get(indexOf(actual, ChangeOp.UPDATE, 3)));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("duplicates")).isEqualTo(1);
    assertThat(result.evidence().count("violations")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("duplicate", "event_id=3"));
  }

  @Test
  void duplicatedEventIsCountedButPassesUnderAtLeastOnce() {
    List<ChangeEvent> actual = sink();
    ChangeEvent redelivered = actual.get(indexOf(actual, ChangeOp.UPDATE, 3));
    // Redelivered after a restore: a later sink position, the same envelope.
    actual.add(Fixture.at(redelivered, SourcePosition.of("sink", 99_999, 0)));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().count("duplicates")).isEqualTo(1);
    assertThat(result.evidence().count("violations")).isZero();
    assertThat(result.summary()).contains("1 duplicate");
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("duplicate", "event_id=3"));
  }

  @Test
  void swappedUpdatesOfOneKeyAreOutOfOrder() {
    List<ChangeEvent> actual = sink();
    int u3 = indexOf(actual, ChangeOp.UPDATE, 3);
    int u6 = indexOf(actual, ChangeOp.UPDATE, 6);
    SourcePosition p3 = actual.get(u3).position();
    SourcePosition p6 = actual.get(u6).position();
    actual.set(u3, Fixture.at(actual.get(u3), p6));
    actual.set(u6, Fixture.at(actual.get(u6), p3));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("out_of_order")).isEqualTo(1);
    assertThat(result.evidence().count("missing")).isZero();
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("out_of_order", "event_id=6"));
    assertThat(result.evidence().samples().get(0).note()).contains("order_id=1");
  }

  @Test
  void lostDeleteIsMissing() {
    List<ChangeEvent> actual = sink();
    actual.remove(indexOf(actual, ChangeOp.DELETE, 4));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("missing")).isEqualTo(1);
    assertThat(result.evidence().samples().get(0).note()).startsWith("d:4 of order_id=3");
  }

  @Test
  void corruptedEarlierVersionIsAnImageMismatch() {
    List<ChangeEvent> actual = sink();
    int u3 = indexOf(actual, ChangeOp.UPDATE, 3);
    actual.set(u3, Fixture.withRow(actual.get(u3), actual.get(u3).row().with("status", "lost")));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("image_mismatch")).isEqualTo(1);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.subject()).isEqualTo("event_id=3");
    assertThat(sample.differingColumns()).containsExactly("status");
    assertThat(sample.expected()).containsEntry("status", "paid");
    assertThat(sample.actual()).containsEntry("status", "lost");
  }

  @Test
  void unexpectedEventIsReported() {
    List<ChangeEvent> actual = sink();
    actual.add(
        new ChangeEvent(
            ChangeOp.UPDATE,
            77,
            6L,
            row(1, 77, "shipped", 100),
            SourcePosition.of("sink", 88_888, 0),
            Fixture.T0));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("unexpected")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("unexpected", "event_id=77"));
  }

  /** Order 1 read by the snapshot at version u:3, then only u:6 in the binlog phase. */
  private List<ChangeEvent> withSnapshotRead(ChangeEvent read) {
    List<ChangeEvent> actual = sink();
    actual.remove(indexOf(actual, ChangeOp.CREATE, 1));
    actual.remove(indexOf(actual, ChangeOp.UPDATE, 3));
    actual.add(read);
    return actual;
  }

  @Test
  void snapshotReadOfAKnownVersionFollowedByTheRestPasses() {
    ChangeEvent read = Fixture.read(row(1, 3, "paid", 100), SourcePosition.of("sink", 1, 0));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, withSnapshotRead(read));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().count("reads")).isEqualTo(1);
  }

  @Test
  void snapshotReadWithAWrongImageFails() {
    ChangeEvent read = Fixture.read(row(1, 3, "shipped", 100), SourcePosition.of("sink", 1, 0));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, withSnapshotRead(read));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("image_mismatch")).isEqualTo(1);
    assertThat(result.evidence().samples().get(0).differingColumns()).containsExactly("status");
  }

  @Test
  void snapshotReadOfAnUnknownVersionFails() {
    ChangeEvent read = Fixture.read(row(1, 99, "paid", 100), SourcePosition.of("sink", 1, 0));

    CheckResult result = audit(DeliverySemantics.EXACTLY_ONCE, withSnapshotRead(read));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("read_of_unknown_version")).isEqualTo(1);
    assertThat(result.evidence().count("missing")).isZero();
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("read_of_unknown_version", "event_id=99"));
  }

  @Test
  void twoSnapshotReadsOfOneKeyFail() {
    List<ChangeEvent> actual =
        withSnapshotRead(Fixture.read(row(1, 3, "paid", 100), SourcePosition.of("sink", 1, 0)));
    actual.add(Fixture.read(row(1, 1, "created", 100), SourcePosition.of("sink", 2, 0)));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("more_than_one_read")).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .contains(tuple("more_than_one_read", "order_id=1"));
  }

  @Test
  void snapshotReadWithoutTheLaterEventsFails() {
    List<ChangeEvent> actual =
        withSnapshotRead(Fixture.read(row(1, 3, "paid", 100), SourcePosition.of("sink", 1, 0)));
    actual.remove(indexOf(actual, ChangeOp.UPDATE, 6));

    CheckResult result = audit(DeliverySemantics.AT_LEAST_ONCE, actual);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("missing", "event_id=6"));
  }

  @Test
  void missingInputIsInconclusive() {
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualChangelog(log("sink", sink()))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("expectedChangelog");
  }

  @ParameterizedTest
  @EnumSource(DeliverySemantics.class)
  void sameContextGivesSameResult(DeliverySemantics semantics) {
    List<ChangeEvent> actual = sink();
    actual.remove(0);
    actual.add(actual.get(3));
    var context =
        Fixture.context(semantics, work)
            .expectedChangelog(log("oracle", fixture.changelog()))
            .actualChangelog(log("sink", actual))
            .maxRowsInMemory(2)
            .build();

    assertThat(check.check(context)).isEqualTo(check.check(context));
  }
}
