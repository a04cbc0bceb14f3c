package io.reliabilitylab.testkit;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

class SampleFaultPointFaultContractTest extends FaultInjectorContract {

  private final SimulatedPipeline pipeline = SimulatedPipeline.running();

  @Override
  protected FaultInjector createInjector() {
    return new SampleFaultPointFault();
  }

  @Override
  protected Optional<PipelineUnderTest> pipelineWithCapabilities() {
    return Optional.of(pipeline);
  }

  @AfterEach
  void stopPipeline() {
    pipeline.close();
  }
}
