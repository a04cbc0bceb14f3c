package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import org.apiguardian.api.API;

/** Looks up the capabilities the lab cannot work without, failing with a sentence if absent. */
@API(status = EXPERIMENTAL)
public final class Capabilities {

  private Capabilities() {}

  /**
   * The capability, or an {@link IllegalStateException} naming the pipeline, the capability and
   * what needed it ({@code purpose}, e.g. "to run a scenario").
   */
  public static <T extends PipelineCapability> T require(
      PipelineUnderTest pipeline, Class<T> capability, String purpose) {
    return pipeline
        .capability(capability)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Pipeline "
                        + pipeline.name()
                        + " does not offer "
                        + capability.getSimpleName()
                        + ", which the lab needs "
                        + purpose));
  }
}
