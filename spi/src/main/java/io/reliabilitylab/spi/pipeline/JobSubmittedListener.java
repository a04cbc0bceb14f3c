package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Called by a pipeline right after it submitted its job and before it waits for the job to stream:
 * the one moment a fault placed in the snapshot phase can still be armed. The job exists (its id is
 * known) but may not run yet. A pipeline whose job could read its source before the listener
 * returns holds the job until then (the reference pipelines hold its first element at their
 * operator fault point); otherwise a fault counted from the job's first row misses the rows read
 * meanwhile.
 */
@API(status = STABLE)
@FunctionalInterface
public interface JobSubmittedListener {

  /** Does nothing. */
  JobSubmittedListener NONE = pipeline -> {};

  /** Called once per started pipeline; an exception fails the pipeline's start. */
  void jobSubmitted(PipelineUnderTest pipeline) throws Exception;
}
