package io.reliabilitylab.kit;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.FaultInjectorContract;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

/** The kit-written sample keeps the testkit's contract, live on the simulated pipeline. */
class OperatorThrowsFaultContractTest extends FaultInjectorContract {

  private final SimulatedPipeline pipeline = SimulatedPipeline.running();

  @Override
  protected FaultInjector createInjector() {
    return new OperatorThrowsFault();
  }

  @Override
  protected Optional<PipelineUnderTest> pipelineWithCapabilities() {
    return Optional.of(pipeline);
  }

  @Override
  protected Duration liveTimeout() {
    return Duration.ofSeconds(10);
  }

  @AfterEach
  void stopPipeline() {
    pipeline.close();
  }
}
