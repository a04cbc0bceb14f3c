package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/** Sees the streaming job: status, restarts, exception history, checkpoints. */
@API(status = STABLE)
public interface JobControl extends PipelineCapability {

  /** The current job id (it changes when a job is restored as a new job). */
  String jobId();

  JobState state();

  /** How many times the job restarted since it was submitted. */
  long restartCount();

  /** The job's exception history, oldest first. */
  List<JobFailure> exceptionHistory();

  /** Recent checkpoints, oldest first. */
  List<CheckpointInfo> checkpoints();

  /** Waits until the job is running with all its tasks. */
  void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException;

  /** Waits for the first checkpoint that completes after {@code after}, and returns it. */
  CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException;
}
