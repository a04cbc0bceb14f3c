package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.BrokerFixture.DLQ_TOPIC;
import static io.reliabilitylab.checks.BrokerFixture.POISON_SHA256;
import static io.reliabilitylab.checks.BrokerFixture.TOPIC;
import static io.reliabilitylab.checks.BrokerFixture.dlq;
import static io.reliabilitylab.checks.BrokerFixture.poison;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DlqIntegrityCheckTest {

  private static final String OTHER_SHA256 =
      "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

  @TempDir Path work;

  private final DlqIntegrityCheck check = new DlqIntegrityCheck();

  private CheckResult audit(List<DlqRecord> records) {
    return audit(records, List.of());
  }

  private CheckResult audit(List<DlqRecord> records, List<LinkageRecord> linkage) {
    return check.check(
        Fixture.context(DeliverySemantics.AT_LEAST_ONCE, work)
            .dlqRecords(records)
            .linkage(linkage)
            .build());
  }

  @Test
  void onePoisonMessageQuarantinedWithItsMetadataPasses() {
    CheckResult result = audit(List.of(poison()));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("records", 1L)
        .containsEntry("distinct_originals", 1L)
        .containsEntry("duplicate_originals", 0L)
        .containsEntry("missing_metadata", 0L)
        .containsEntry("bytes_not_preserved", 0L);
    assertThat(result.evidence().facts())
        .containsEntry("dead_letter_records", "1")
        .containsEntry("dead_letter_topics", DLQ_TOPIC);
    assertThat(result.evidence().samples()).isEmpty();
  }

  @Test
  void theSameOffsetInOtherPartitionsOrTopicsIsAnotherOriginal() {
    DlqRecord otherTopic =
        new DlqRecord(
            "inventory.dlq",
            0,
            0,
            "inventory",
            2,
            5,
            0,
            "E",
            "m",
            BrokerFixture.T0,
            1,
            OTHER_SHA256,
            3,
            true);

    CheckResult result = audit(List.of(poison(), dlq(1, 1, 5, OTHER_SHA256), otherTopic));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts()).containsEntry("distinct_originals", 3L);
  }

  @Test
  void anEmptyDeadLetterTopicOfAnObservedBrokerPasses() {
    CheckResult result = audit(List.of(), BrokerFixture.faithfulLinkage());

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.summary()).contains("nothing was quarantined");
    assertThat(result.evidence().facts())
        .containsEntry("dead_letter_records", "0")
        .containsEntry("source_topic", TOPIC);
    assertThat(result.evidence().counts()).containsEntry("records", 0L);
  }

  @Test
  void noDeadLetterRecordsAndNoBrokerIsInconclusive() {
    assertThat(audit(List.of()).verdict()).isEqualTo(Verdict.INCONCLUSIVE);

    CheckResult withoutBroker = audit(List.of(), BrokerFixture.directLinkage());

    assertThat(withoutBroker.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(withoutBroker.summary()).contains("dlqRecords", "no linkage record with a topic");
  }

  @Test
  void anOriginalQuarantinedTwiceFailsNamingBothDeadLetterRecords() {
    CheckResult result =
        audit(
            List.of(
                poison(), dlq(1, 0, 3, OTHER_SHA256), BrokerFixture.requarantined(poison(), 2)));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.summary()).contains("1 originals quarantined more than once");
    assertThat(result.evidence().counts())
        .containsEntry("records", 3L)
        .containsEntry("distinct_originals", 2L)
        .containsEntry("duplicate_originals", 1L);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample.kind()).isEqualTo("duplicate_original");
    assertThat(sample.subject()).isEqualTo(TOPIC + "/2@5");
    assertThat(sample.actual())
        .containsEntry("dlq_records", DLQ_TOPIC + "/0@0, " + DLQ_TOPIC + "/0@2")
        .containsEntry("original_value_sha256", POISON_SHA256)
        .containsEntry("original_value_length", "71");
  }

  @Test
  void missingErrorMetadataFailsNamingTheFields() {
    DlqRecord bare =
        new DlqRecord(DLQ_TOPIC, 0, 0, TOPIC, 2, 5, 0, null, " ", null, 0, POISON_SHA256, 71, true);

    CheckResult result = audit(List.of(bare));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().counts()).containsEntry("missing_metadata", 1L);
    EvidenceSample sample = result.evidence().samples().get(0);
    assertThat(sample)
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly("missing_metadata", DLQ_TOPIC + "/0@0");
    assertThat(sample.differingColumns())
        .containsExactly("error_type", "error_message", "quarantined_at", "dlq_schema_version");
    assertThat(sample.actual())
        .containsEntry("original_topic", TOPIC)
        .containsEntry("original_partition", "2")
        .containsEntry("original_offset", "5")
        .containsEntry("error_type", "missing")
        .containsEntry("error_message", "blank");
    assertThat(sample.note()).contains("quarantined " + TOPIC + "/2@5 without valid error_type");
  }

  @Test
  void originalBytesNotPreservedFails() {
    CheckResult result = audit(DlqDefect.BYTES_NOT_PRESERVED.apply(List.of(poison())));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().counts()).containsEntry("bytes_not_preserved", 1L);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(tuple("bytes_not_preserved", DLQ_TOPIC + "/0@0"));
    assertThat(result.evidence().samples().get(0).note()).contains(POISON_SHA256);
  }

  @ParameterizedTest
  @EnumSource(DlqDefect.class)
  void everyDefectFailsWithItsCountAndSample(DlqDefect defect) {
    CheckResult result = audit(defect.apply(List.of(poison(), dlq(1, 0, 3, OTHER_SHA256))));

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count(defect.count())).isEqualTo(1);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind)
        .contains(defect.kind());
  }

  @Test
  void evidenceNeverCarriesTheErrorMessageOrAFieldThatIsNotADigest() {
    // A deserializer quotes the payload in its message; a broken writer may put it in the digest.
    String payload = "{\"amount_cents\":\"ten thousand\"}";
    DlqRecord leaky =
        new DlqRecord(
            DLQ_TOPIC,
            0,
            0,
            TOPIC,
            2,
            5,
            0,
            "Unrecognized token '" + payload + "'",
            "Unrecognized token '" + payload + "': was expecting a number",
            BrokerFixture.T0,
            1,
            payload,
            payload.length(),
            false);

    CheckResult result = audit(List.of(leaky, BrokerFixture.requarantined(leaky, 1)));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.toString()).doesNotContain("ten thousand").doesNotContain("amount_cents");
    assertThat(result.evidence().samples().get(0).actual().get("original_value_sha256"))
        .isEqualTo("not 64 lower-case hex digits (" + payload.length() + " characters, not shown)");
  }
}
