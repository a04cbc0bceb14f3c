package io.reliabilitylab.testkit;

import io.reliabilitylab.spi.check.ReconciliationCheck;

class SampleCurrentTableCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new SampleCurrentTableCheck();
  }
}
