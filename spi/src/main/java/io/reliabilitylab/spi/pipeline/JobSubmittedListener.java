package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Called by a pipeline right after it submitted its job and before it waits for the job to stream:
 * the one moment a fault placed in the snapshot phase can still be armed. The job exists (its id is
 * known) but may not run yet.
 */
@API(status = STABLE)
@FunctionalInterface
public interface JobSubmittedListener {

  /** Does nothing. */
  JobSubmittedListener NONE = pipeline -> {};

  /** Called once per started pipeline; an exception fails the pipeline's start. */
  void jobSubmitted(PipelineUnderTest pipeline) throws Exception;
}
