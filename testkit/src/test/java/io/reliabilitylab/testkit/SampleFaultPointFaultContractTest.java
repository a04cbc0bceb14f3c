package io.reliabilitylab.testkit;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.util.Optional;

class SampleFaultPointFaultContractTest extends FaultInjectorContract {

  private final SimulatedPipeline pipeline = new SimulatedPipeline();

  @Override
  protected FaultInjector createInjector() {
    return new SampleFaultPointFault();
  }

  @Override
  protected Optional<PipelineUnderTest> pipelineWithCapabilities() {
    return Optional.of(pipeline);
  }
}
