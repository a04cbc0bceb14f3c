package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Random faithful dead-letter topics (distinct originals, complete metadata, bytes preserved) pass;
 * any single defect fails with exactly its own count raised to 1.
 */
class DlqIntegrityProperties {

  private static final List<String> COUNTS =
      List.of("duplicate_originals", "missing_metadata", "bytes_not_preserved");

  private final DlqIntegrityCheck check = new DlqIntegrityCheck();

  /** What a record quarantines and says about it; the DLQ position is assigned in list order. */
  private record Quarantined(
      int partition,
      long offset,
      String sha256,
      long length,
      String errorType,
      String errorMessage,
      int schemaVersion) {}

  @Provide
  Arbitrary<List<DlqRecord>> faithfulTopics() {
    Arbitrary<Quarantined> one =
        Combinators.combine(
                Arbitraries.integers().between(0, 3),
                Arbitraries.longs().between(0, 500),
                Arbitraries.strings().withChars("0123456789abcdef").ofLength(64),
                Arbitraries.longs().between(0, 1_000_000),
                Arbitraries.of(
                    "org.apache.kafka.common.errors.SerializationException",
                    "com.fasterxml.jackson.core.JsonParseException",
                    "VALIDATION_FAILED"),
                Arbitraries.strings().alpha().ofMinLength(4).ofMaxLength(30),
                Arbitraries.integers().between(1, 3))
            .as(Quarantined::new);
    return one.list()
        .ofMinSize(1)
        .ofMaxSize(20)
        .uniqueElements(q -> List.of(q.partition(), q.offset()))
        .map(DlqIntegrityProperties::records);
  }

  private static List<DlqRecord> records(List<Quarantined> quarantined) {
    List<DlqRecord> records = new ArrayList<>();
    for (int i = 0; i < quarantined.size(); i++) {
      Quarantined q = quarantined.get(i);
      records.add(
          new DlqRecord(
              BrokerFixture.DLQ_TOPIC,
              i % 2,
              i / 2,
              BrokerFixture.TOPIC,
              q.partition(),
              q.offset(),
              BrokerFixture.T0.toEpochMilli() + q.offset(),
              q.errorType(),
              "poison-payload " + q.errorMessage(),
              BrokerFixture.T0.plusMillis(i),
              q.schemaVersion(),
              q.sha256(),
              q.length(),
              true));
    }
    return records;
  }

  private CheckResult audit(List<DlqRecord> records, DeliverySemantics semantics) {
    return check.check(
        Fixture.context(semantics, Path.of("unused"))
            .dlqRecords(records)
            .sampleLimit(1_000)
            .build());
  }

  @Property(tries = 300)
  void faithfulTopicsPass(
      @ForAll("faithfulTopics") List<DlqRecord> records, @ForAll DeliverySemantics semantics) {
    CheckResult result = audit(records, semantics);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("records", (long) records.size())
        .containsEntry("distinct_originals", (long) records.size());
    assertThat(result.evidence().samples()).isEmpty();
  }

  @Property(tries = 500)
  void anySingleDefectFailsWithItsOwnCount(
      @ForAll("faithfulTopics") List<DlqRecord> records,
      @ForAll DlqDefect defect,
      @ForAll @IntRange(min = 0, max = 1_000) int pick) {
    CheckResult result = audit(defect.apply(records, pick), DeliverySemantics.AT_LEAST_ONCE);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    for (String count : COUNTS) {
      assertThat(result.evidence().count(count))
          .as("%s after %s", count, defect)
          .isEqualTo(count.equals(defect.count()) ? 1 : 0);
    }
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind)
        .containsExactly(defect.kind());
  }

  @Property(tries = 200)
  void evidenceNeverRepeatsAnErrorMessage(
      @ForAll("faithfulTopics") List<DlqRecord> records,
      @ForAll DlqDefect defect,
      @ForAll @IntRange(min = 0, max = 1_000) int pick) {
    List<DlqRecord> broken = defect.apply(records, pick);

    String evidence = audit(broken, DeliverySemantics.EXACTLY_ONCE).toString();

    // every generated error message starts with this marker
    assertThat(evidence).doesNotContain("poison-payload");
  }
}
