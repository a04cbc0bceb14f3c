package io.reliabilitylab.checks.contract;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.testkit.ReconciliationCheckContract;

class SnapshotDiffCheckContractTest extends ReconciliationCheckContract {
  @Override
  protected ReconciliationCheck createCheck() {
    return new SnapshotDiffCheck();
  }
}
