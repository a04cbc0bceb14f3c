package io.reliabilitylab.junit.testplugins;

import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;

/** A pipeline that only exists to be found by name: the extension's tests never start one. */
public final class UnstartablePipeline implements PipelineProvider {

  public static final String NAME = "junit-test-pipeline";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A pipeline the JUnit extension's tests find by name and never start.";
  }

  @Override
  public PipelineUnderTest start(PipelineConfig config) {
    throw new UnsupportedOperationException("the extension's tests never start a pipeline");
  }
}
