package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.NoDuplicateKeysCheck;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.testkit.ReconciliationCheckContract;

class NoDuplicateKeysCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new NoDuplicateKeysCheck();
  }
}
