package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.BrokerFixture.CHANGELOG;
import static io.reliabilitylab.checks.BrokerFixture.CURRENT;
import static io.reliabilitylab.checks.BrokerFixture.TOPIC;
import static io.reliabilitylab.checks.BrokerFixture.changed;
import static io.reliabilitylab.checks.BrokerFixture.changedLast;
import static io.reliabilitylab.checks.BrokerFixture.completed;
import static io.reliabilitylab.checks.BrokerFixture.directLinkage;
import static io.reliabilitylab.checks.BrokerFixture.faithfulLinkage;
import static io.reliabilitylab.checks.BrokerFixture.offset;
import static io.reliabilitylab.checks.BrokerFixture.record;
import static io.reliabilitylab.checks.BrokerFixture.tables;
import static io.reliabilitylab.checks.BrokerFixture.withCheckpoint;
import static io.reliabilitylab.checks.BrokerFixture.withOffset;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.LinkageRecord.CheckpointRef;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OffsetCheckpointSnapshotLinkageCheckTest {

  @TempDir Path work;

  private final OffsetCheckpointSnapshotLinkageCheck check =
      new OffsetCheckpointSnapshotLinkageCheck();

  private CheckResult judge(List<LinkageRecord> linkage) {
    return judge(linkage, 50);
  }

  private CheckResult judge(List<LinkageRecord> linkage, int sampleLimit) {
    return check.check(
        Fixture.context(DeliverySemantics.AT_LEAST_ONCE, work)
            .linkage(linkage)
            .sampleLimit(sampleLimit)
            .build());
  }

  private static List<String> kinds(CheckResult result) {
    return result.evidence().samples().stream().map(EvidenceSample::kind).toList();
  }

  @Test
  void faithfulBrokerRunPassesWithOneFactPerRecord() {
    CheckResult result = judge(faithfulLinkage());

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.summary())
        .contains("3 partitions of " + TOPIC + " consumed to lag 0", "checkpoint 22");
    assertThat(result.evidence().counts())
        .containsEntry("records", 3L)
        .containsEntry("partitions", 3L)
        .containsEntry("total_final_lag", 0L)
        .containsEntry("violations", 0L);
    assertThat(result.evidence().samples()).isEmpty();
    assertThat(result.evidence().facts())
        .containsKeys("linkage_1", "linkage_2", "linkage_3")
        .containsEntry("final_label", "final")
        .containsEntry("final_checkpoint_id", "22");
    assertThat(result.evidence().facts().get("linkage_3"))
        .startsWith("final at ")
        .contains(
            "topic " + TOPIC + " group " + BrokerFixture.GROUP,
            "p0 committed 4 log_end 4 lag 0",
            "p2 committed 8 log_end 8 lag 0",
            "checkpoint 22 COMPLETED",
            CHANGELOG + " snapshot 3002 by checkpoint 22",
            CURRENT + " snapshot 3001 by checkpoint 22");
  }

  @Test
  void pipelineWithoutABrokerIsJudgedOnCheckpointsAndSnapshotsOnly() {
    CheckResult result = judge(directLinkage());

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.summary()).contains("no broker offsets");
    assertThat(result.evidence().counts())
        .containsEntry("partitions", 0L)
        .containsEntry("violations", 0L);
    assertThat(result.evidence().facts().get("linkage_1")).contains("no topic");
  }

  @Test
  void aSingleFinalRecordIsEnough() {
    CheckResult result = judge(faithfulLinkage().subList(2, 3));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void earlierRecordsMayShowLagAFailedCheckpointAndNoProgress() {
    List<LinkageRecord> linkage =
        List.of(
            record(
                "baseline",
                0,
                TOPIC,
                List.of(offset(0, 3, 9), offset(1, 4, 4)),
                new CheckpointRef(5, "FAILED", null),
                tables(4, 1)),
            record(
                "repair",
                10,
                TOPIC,
                List.of(offset(0, 3, 9), offset(1, 4, 4)),
                completed(5),
                tables(4, 1)),
            record(
                "final",
                20,
                TOPIC,
                List.of(offset(0, 9, 9), offset(1, 4, 4)),
                completed(6),
                tables(6, 2)));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
  }

  @Test
  void offsetsDeliberatelyLeftUnconsumedFail() {
    // The negative control of the broker suite: two records of partition 1 never consumed.
    List<LinkageRecord> linkage =
        changedLast(faithfulLinkage(), r -> withOffset(r, 1, offset(1, 4, 6)));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.summary()).contains("1 linkage violations", "(lag)", "final lag 2");
    assertThat(result.evidence().counts())
        .containsEntry("total_final_lag", 2L)
        .containsEntry("violations", 1L);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("lag", "final " + TOPIC + "/1"));
    assertThat(result.evidence().samples().get(0).note())
        .contains("2 records left unconsumed", "committed offset 4", "log-end offset 6");
  }

  @Test
  void aFailedLastCheckpointFails() {
    CheckResult result =
        judge(
            changedLast(
                faithfulLinkage(), r -> withCheckpoint(r, new CheckpointRef(22, "FAILED", null))));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("checkpoint_not_completed", "final checkpoint 22"));
    assertThat(result.evidence().samples().get(0).note()).contains("'FAILED'");
  }

  @Test
  void aSnapshotCommittedByAnOlderCheckpointFails() {
    List<LinkageRecord> linkage =
        changedLast(
            faithfulLinkage(),
            r -> BrokerFixture.withSnapshot(r, CURRENT, BrokerFixture.snapshot(3001, 21L)));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("snapshot_not_from_checkpoint", "final " + CURRENT));
    assertThat(result.evidence().samples().get(0).note())
        .contains("snapshot 3001 was committed by checkpoint 21, not by the later checkpoint 22");
  }

  @Test
  void aCommittedOffsetThatWentBackFails() {
    // partition 2 read to 7 after repair, then reported at 6 at the end (with 6 in its log)
    List<LinkageRecord> linkage =
        changedLast(faithfulLinkage(), r -> withOffset(r, 2, offset(2, 6, 8)));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(kinds(result)).containsExactly("offset_regressed", "lag");
    assertThat(result.evidence().samples().get(0).subject()).isEqualTo("final " + TOPIC + "/2");
    assertThat(result.evidence().samples().get(0).note())
        .contains("went back from 7 to 6 between 'repair' -> 'final'");
  }

  @Test
  void aCheckpointIdThatWentBackFails() {
    List<LinkageRecord> linkage =
        changed(faithfulLinkage(), 1, r -> withCheckpoint(r, completed(1)));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(kinds(result)).containsExactly("checkpoint_regressed");
  }

  @Test
  void aRecordWithATopicButNoOffsetsObservedNothing() {
    List<LinkageRecord> linkage =
        changedLast(faithfulLinkage(), r -> BrokerFixture.withOffsets(r, List.of()));

    CheckResult result = judge(linkage);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(kinds(result)).containsExactly("no_offsets");
    assertThat(result.evidence().facts().get("linkage_3")).contains("no offsets");
  }

  @ParameterizedTest
  @EnumSource(LinkageDefect.class)
  void everyDefectFailsNamingItsRule(LinkageDefect defect) {
    CheckResult result = judge(defect.apply(faithfulLinkage()));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(kinds(result)).contains(defect.kind());
    assertThat(result.summary()).contains(defect.kind());
    assertThat(result.evidence().count("violations")).isEqualTo(kinds(result).size());
  }

  @ParameterizedTest
  @EnumSource(LinkageDefect.class)
  void everyDefectWithoutOffsetsFailsWithoutABrokerToo(LinkageDefect defect) {
    if (!defect.appliesTo(directLinkage())) {
      return;
    }
    CheckResult result = judge(defect.apply(directLinkage()));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(kinds(result)).contains(defect.kind());
  }

  @Test
  void samplesAreCappedButCountsAreComplete() {
    List<LinkageRecord> linkage =
        changedLast(
            faithfulLinkage(),
            r ->
                BrokerFixture.withOffsets(
                    r, List.of(offset(0, 1, 4), offset(1, 1, 4), offset(2, 1, 8))));

    CheckResult result = judge(linkage, 1);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("violations")).isEqualTo(6);
    assertThat(result.evidence().samples()).hasSize(1);
    assertThat(result.evidence().samplesOmitted()).isEqualTo(5);
    assertThat(result.evidence().count("total_final_lag")).isEqualTo(13);
  }

  @Test
  void noLinkageIsInconclusive() {
    CheckResult result = judge(List.of());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("linkage");
  }
}
