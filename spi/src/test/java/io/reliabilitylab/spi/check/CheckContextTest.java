package io.reliabilitylab.spi.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CheckContextTest {

  @Test
  void aBuilderNeedsOnlyTheSemanticsAndLeavesEveryInputAbsent() {
    CheckContext context = CheckContext.builder(DeliverySemantics.AT_LEAST_ONCE).build();
    assertThat(context.semantics()).isEqualTo(DeliverySemantics.AT_LEAST_ONCE);
    assertThat(context.expectedCurrent()).isEmpty();
    assertThat(context.actualCurrent()).isEmpty();
    assertThat(context.expectedChangelog()).isEmpty();
    assertThat(context.actualChangelog()).isEmpty();
    assertThat(context.linkage()).isEmpty();
    assertThat(context.dlqRecords()).isEmpty();
    assertThat(context.checkpointId()).isEmpty();
    assertThat(context.maxRowsInMemory()).isEqualTo(250_000);
    assertThat(context.sampleLimit()).isEqualTo(20);
    assertThat(context.commitConsistency()).isEqualTo(CommitConsistency.PER_KEY);
  }

  @Test
  void toBuilderChangesOneInputAndKeepsTheRest() {
    CheckContext context =
        CheckContext.builder(DeliverySemantics.EXACTLY_ONCE)
            .checkpointId(7L)
            .workDirectory(Path.of("scenario-work"))
            .maxRowsInMemory(10)
            .sampleLimit(3)
            .commitConsistency(CommitConsistency.TRANSACTION_PREFIX)
            .build();
    CheckContext changed = context.toBuilder().sampleLimit(5).build();
    assertThat(changed.sampleLimit()).isEqualTo(5);
    assertThat(changed.commitConsistency()).isEqualTo(CommitConsistency.TRANSACTION_PREFIX);
    assertThat(changed.checkpointId()).contains(7L);
    assertThat(changed.workDirectory()).isEqualTo(Path.of("scenario-work"));
    assertThat(changed.maxRowsInMemory()).isEqualTo(10);
    assertThat(context.toBuilder().build()).isEqualTo(context);
    assertThat(context)
        .isEqualTo(
            new CheckContext(
                DeliverySemantics.EXACTLY_ONCE,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                List.of(),
                Optional.of(7L),
                Path.of("scenario-work"),
                10,
                3,
                CommitConsistency.TRANSACTION_PREFIX));
    // the constructor of the eleven inputs before the claim claims no more than per key
    assertThat(
            new CheckContext(
                    DeliverySemantics.EXACTLY_ONCE,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    List.of(),
                    Optional.empty(),
                    Path.of("w"),
                    1,
                    0)
                .commitConsistency())
        .isEqualTo(CommitConsistency.PER_KEY);
  }

  @Test
  void theBuilderRefusesWhatTheRecordRefuses() {
    assertThatThrownBy(
            () -> CheckContext.builder(DeliverySemantics.EXACTLY_ONCE).maxRowsInMemory(0).build())
        .hasMessageContaining("maxRowsInMemory");
  }

  @Test
  void anEvidenceSampleIsBuiltWithWhatItShows() {
    EvidenceSample sample =
        EvidenceSample.builder("mismatched", "order_id=42")
            .expected(Map.of("status", "paid"))
            .actual(Map.of("status", "created"))
            .differingColumns(List.of("status"))
            .note("the update of event 1007 is missing")
            .build();
    assertThat(sample)
        .isEqualTo(
            new EvidenceSample(
                "mismatched",
                "order_id=42",
                Map.of("status", "paid"),
                Map.of("status", "created"),
                List.of("status"),
                "the update of event 1007 is missing"));
    assertThat(EvidenceSample.builder("missing", "order_id=1").build())
        .isEqualTo(EvidenceSample.of("missing", "order_id=1", ""));
  }
}
