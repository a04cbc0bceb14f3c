package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import org.apiguardian.api.API;

/** Stops a job with a savepoint and restores it, also from a retained checkpoint. */
@API(status = STABLE)
public interface SavepointControl extends PipelineCapability {

  /** Stops the job with a savepoint and returns the savepoint's path. */
  String stopWithSavepoint(Duration timeout) throws Exception;

  /** Starts the job again from a savepoint or retained checkpoint under a new job id. */
  String restore(String path, int parallelism) throws Exception;

  /** The path of the latest retained checkpoint, for a restore after the cluster died. */
  String latestRetainedCheckpoint() throws Exception;
}
