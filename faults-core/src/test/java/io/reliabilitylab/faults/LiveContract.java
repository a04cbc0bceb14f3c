package io.reliabilitylab.faults;

import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.FaultInjectorContract;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;

/** The testkit's contract, live against a fresh {@link SimulatedPipeline} per test. */
abstract class LiveContract extends FaultInjectorContract {

  private final SimulatedPipeline pipeline;

  /** Live against {@link SimulatedPipeline#running()}. */
  LiveContract() {
    this(SimulatedPipeline::running);
  }

  /**
   * Live against a pipeline of another kind, e.g. {@link SimulatedPipeline#runningWithBroker()}.
   */
  LiveContract(Supplier<SimulatedPipeline> pipelines) {
    this.pipeline = pipelines.get();
  }

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
