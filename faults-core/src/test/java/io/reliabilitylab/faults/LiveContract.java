package io.reliabilitylab.faults;

import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.FaultInjectorContract;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

/** The testkit's contract, live against a fresh {@link SimulatedPipeline} per test. */
abstract class LiveContract extends FaultInjectorContract {

  private final SimulatedPipeline pipeline = SimulatedPipeline.running();

  /** The pipeline the live tests inject into. */
  SimulatedPipeline pipeline() {
    return pipeline;
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
