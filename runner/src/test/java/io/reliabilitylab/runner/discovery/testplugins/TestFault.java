package io.reliabilitylab.runner.discovery.testplugins;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import java.util.Set;

/** A fault that only exists to be discovered; it requires two capabilities. */
public final class TestFault implements FaultInjector {

  @Override
  public String name() {
    return "test-fault";
  }

  @Override
  public String description() {
    return "Pretends to stop a TaskManager.";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(TaskManagerControl.class, JobControl.class);
  }

  @Override
  public FaultHandle inject(FaultContext context) {
    throw new UnsupportedOperationException("discovery tests never inject a fault");
  }
}
