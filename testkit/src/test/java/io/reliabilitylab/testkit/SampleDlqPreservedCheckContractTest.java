package io.reliabilitylab.testkit;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.time.Instant;
import java.util.List;

/** A check whose input is dead-letter records brings its own faithful and broken contexts. */
class SampleDlqPreservedCheckContractTest extends ReconciliationCheckContract {

  @Override
  protected ReconciliationCheck createCheck() {
    return new SampleDlqPreservedCheck();
  }

  @Override
  protected List<LabeledContext> faithfulContexts() {
    return List.of(
        LabeledContext.of(
            "one poison message quarantined with its bytes",
            OrdersFixtures.faithful(DeliverySemantics.AT_LEAST_ONCE)
                .dlqRecords(List.of(dlq(true)))
                .build()));
  }

  @Override
  protected List<LabeledContext> brokenContexts() {
    return List.of(
        LabeledContext.of(
            "one poison message quarantined without its original bytes",
            OrdersFixtures.faithful(DeliverySemantics.AT_LEAST_ONCE)
                .dlqRecords(List.of(dlq(false)))
                .build()));
  }

  private static DlqRecord dlq(boolean preserved) {
    return new DlqRecord(
        "orders.dlq",
        0,
        0,
        "orders",
        0,
        41,
        1_767_225_600_000L,
        "org.apache.kafka.common.errors.SerializationException",
        "Unrecognized token",
        Instant.parse("2026-01-01T00:00:01Z"),
        1,
        "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
        3,
        preserved);
  }
}
