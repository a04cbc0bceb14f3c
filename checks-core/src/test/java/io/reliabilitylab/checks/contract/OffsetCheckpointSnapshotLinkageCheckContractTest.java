package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.BrokerFixture;
import io.reliabilitylab.checks.LinkageDefect;
import io.reliabilitylab.checks.OffsetCheckpointSnapshotLinkageCheck;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.testkit.LabeledContext;
import io.reliabilitylab.testkit.OrdersFixtures;
import io.reliabilitylab.testkit.ReconciliationCheckContract;
import io.reliabilitylab.testkit.StandardContexts;
import java.util.ArrayList;
import java.util.List;

/** The linkage check reads linkage records only, so it brings its own contexts. */
class OffsetCheckpointSnapshotLinkageCheckContractTest extends ReconciliationCheckContract {

  @Override
  protected ReconciliationCheck createCheck() {
    return new OffsetCheckpointSnapshotLinkageCheck();
  }

  @Override
  protected List<LabeledContext> faithfulContexts() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      contexts.add(
          with(
              "broker linkage at baseline, repair and final, lag 0 (" + semantics + ")",
              semantics,
              BrokerFixture.faithfulLinkage()));
    }
    contexts.add(
        with(
            "linkage without a broker: checkpoints and snapshots only",
            DeliverySemantics.EXACTLY_ONCE,
            BrokerFixture.directLinkage()));
    return contexts;
  }

  @Override
  protected List<LabeledContext> brokenContexts() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (LinkageDefect defect : LinkageDefect.values()) {
      contexts.add(
          with(
              "broker linkage with " + defect.kind(),
              DeliverySemantics.AT_LEAST_ONCE,
              defect.apply(BrokerFixture.faithfulLinkage())));
    }
    return contexts;
  }

  @Override
  protected List<LabeledContext> otherContexts() {
    List<LabeledContext> contexts = new ArrayList<>(StandardContexts.partial());
    contexts.add(
        with(
            "only the final record",
            DeliverySemantics.EXACTLY_ONCE,
            BrokerFixture.faithfulLinkage().subList(2, 3)));
    return contexts;
  }

  private static LabeledContext with(
      String label, DeliverySemantics semantics, List<LinkageRecord> linkage) {
    return LabeledContext.of(label, OrdersFixtures.faithful(semantics).linkage(linkage).build());
  }
}
