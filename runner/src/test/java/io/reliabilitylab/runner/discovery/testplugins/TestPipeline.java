package io.reliabilitylab.runner.discovery.testplugins;

import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;

/** A pipeline that only exists to be discovered. */
public final class TestPipeline implements PipelineProvider {

  @Override
  public String name() {
    return "test-pipeline";
  }

  @Override
  public String description() {
    return "A pipeline that is never started.";
  }

  @Override
  public PipelineUnderTest start(PipelineConfig config) {
    throw new UnsupportedOperationException("discovery tests never start a pipeline");
  }
}
