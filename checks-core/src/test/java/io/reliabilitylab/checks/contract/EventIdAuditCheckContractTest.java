package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.EventIdAuditCheck;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.testkit.ReconciliationCheckContract;

class EventIdAuditCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new EventIdAuditCheck();
  }
}
