package io.reliabilitylab.spi.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EvidenceTest {

  @Test
  void capsSamplesButCountsTheRest() {
    Evidence.Builder builder = Evidence.builder(2);
    for (int i = 0; i < 5; i++) {
      builder.sample(EvidenceSample.of("missing", "order_id=" + i, "gone")).increment("missing");
    }
    Evidence evidence = builder.build();
    assertThat(evidence.samples()).hasSize(2);
    assertThat(evidence.samplesOmitted()).isEqualTo(3);
    assertThat(evidence.count("missing")).isEqualTo(5);
    assertThat(evidence.count("unexpected")).isZero();
  }

  @Test
  void failedOutranksInconclusiveOutranksPassed() {
    assertThat(Verdict.PASSED.worst(Verdict.INCONCLUSIVE)).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(Verdict.INCONCLUSIVE.worst(Verdict.FAILED)).isEqualTo(Verdict.FAILED);
    assertThat(Verdict.FAILED.worst(Verdict.PASSED)).isEqualTo(Verdict.FAILED);
  }

  @Test
  void aMissingInputIsInconclusiveAndSaysWhich() {
    CheckResult result = CheckResult.missingInput("snapshot-diff", "actual current table");
    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.evidence().facts()).containsEntry("missing_input", "actual current table");
  }
}
