package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.BrokerFixture;
import io.reliabilitylab.checks.DlqDefect;
import io.reliabilitylab.checks.DlqIntegrityCheck;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.testkit.LabeledContext;
import io.reliabilitylab.testkit.OrdersFixtures;
import io.reliabilitylab.testkit.ReconciliationCheckContract;
import io.reliabilitylab.testkit.StandardContexts;
import java.util.ArrayList;
import java.util.List;

/** The DLQ check reads dead-letter records (and linkage, for an empty topic): its own contexts. */
class DlqIntegrityCheckContractTest extends ReconciliationCheckContract {

  private static final String OTHER_SHA256 =
      "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

  @Override
  protected ReconciliationCheck createCheck() {
    return new DlqIntegrityCheck();
  }

  @Override
  protected List<LabeledContext> faithfulContexts() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      contexts.add(
          with(
              "one poison message quarantined with its metadata and bytes (" + semantics + ")",
              semantics,
              List.of(BrokerFixture.poison()),
              List.of()));
    }
    contexts.add(
        with(
            "an empty dead-letter topic of an observed broker",
            DeliverySemantics.AT_LEAST_ONCE,
            List.of(),
            BrokerFixture.faithfulLinkage()));
    return contexts;
  }

  @Override
  protected List<LabeledContext> brokenContexts() {
    List<DlqRecord> faithful =
        List.of(BrokerFixture.poison(), BrokerFixture.dlq(1, 0, 3, OTHER_SHA256));
    List<LabeledContext> contexts = new ArrayList<>();
    for (DlqDefect defect : DlqDefect.values()) {
      contexts.add(
          with(
              "two dead-letter records, one broken: " + defect,
              DeliverySemantics.AT_LEAST_ONCE,
              defect.apply(faithful),
              BrokerFixture.faithfulLinkage()));
    }
    return contexts;
  }

  @Override
  protected List<LabeledContext> otherContexts() {
    List<LabeledContext> contexts = new ArrayList<>(StandardContexts.partial());
    contexts.add(
        with(
            "no dead-letter records, linkage without a broker",
            DeliverySemantics.EXACTLY_ONCE,
            List.of(),
            BrokerFixture.directLinkage()));
    return contexts;
  }

  private static LabeledContext with(
      String label,
      DeliverySemantics semantics,
      List<DlqRecord> records,
      List<LinkageRecord> linkage) {
    return LabeledContext.of(
        label, OrdersFixtures.faithful(semantics).dlqRecords(records).linkage(linkage).build());
  }
}
