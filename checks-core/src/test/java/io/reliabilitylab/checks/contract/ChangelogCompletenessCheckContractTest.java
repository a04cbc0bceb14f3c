package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.ChangelogCompletenessCheck;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.testkit.ReconciliationCheckContract;

class ChangelogCompletenessCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new ChangelogCompletenessCheck();
  }
}
