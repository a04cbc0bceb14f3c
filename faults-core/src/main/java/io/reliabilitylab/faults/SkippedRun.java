package io.reliabilitylab.faults;

import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Duration;
import java.util.Map;

/** A fault that was not injected (the job lacks a fault point it needs): nothing to heal. */
record SkippedRun(FaultEvidence evidence) implements FaultHandle {

  @Override
  public FaultEvidence awaitFired(Duration timeout) {
    return evidence;
  }

  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout) {
    return new RecoveryEvidence(
        false,
        evidence.injectedAt(),
        null,
        null,
        null,
        null,
        null,
        0,
        Map.of("skipped", evidence.reason()));
  }

  @Override
  public void close() {}
}
