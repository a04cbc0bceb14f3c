package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.CurrentChangelogConsistencyCheck;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.testkit.ReconciliationCheckContract;

class CurrentChangelogConsistencyCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new CurrentChangelogConsistencyCheck();
  }
}
