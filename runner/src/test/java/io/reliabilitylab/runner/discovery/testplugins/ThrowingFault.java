package io.reliabilitylab.runner.discovery.testplugins;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.Set;

/** A fault that discovers fine but fails when asked what it requires: an unexpected error. */
public final class ThrowingFault implements FaultInjector {

  @Override
  public String name() {
    return "throwing-fault";
  }

  @Override
  public String description() {
    return "Fails when listed.";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    throw new IllegalStateException(
        "capabilities unavailable", new java.io.IOException("disk\nfull"));
  }

  @Override
  public FaultHandle inject(FaultContext context) {
    throw new UnsupportedOperationException("discovery tests never inject a fault");
  }
}
