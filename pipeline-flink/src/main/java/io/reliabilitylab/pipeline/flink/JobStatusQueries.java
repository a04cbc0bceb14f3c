package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FlinkPipeline}'s {@link JobControl}: what the cluster its job runs on reports of the
 * job. Cluster and job id are asked for anew on every call, since a restore swaps them.
 */
final class JobStatusQueries implements JobControl {

  // The pipeline's logger: these lines are the pipeline's, wherever the code that logs them lives.
  private static final Logger LOG = LoggerFactory.getLogger(FlinkPipeline.class);

  private final Supplier<FlinkCluster> cluster;
  private final Supplier<JobID> jobId;

  JobStatusQueries(Supplier<FlinkCluster> cluster, Supplier<JobID> jobId) {
    this.cluster = cluster;
    this.jobId = jobId;
  }

  @Override
  public String jobId() {
    return jobId.get().toHexString();
  }

  @Override
  public JobState state() {
    JobID id = jobId.get();
    try {
      JobStatus status = cluster.get().status(id);
      return JobState.valueOf(status.name());
    } catch (Exception e) {
      LOG.debug("Job status of {} unavailable", id, e);
      return JobState.UNKNOWN;
    }
  }

  @Override
  public long restartCount() {
    JobID id = jobId.get();
    try {
      return cluster.get().restartCount(id);
    } catch (Exception e) {
      throw new IllegalStateException("The restart count of job " + id + " is unavailable", e);
    }
  }

  @Override
  public List<JobFailure> exceptionHistory() {
    JobID id = jobId.get();
    try {
      return cluster.get().exceptionHistory(id);
    } catch (Exception e) {
      throw new IllegalStateException("The exception history of job " + id + " is unavailable", e);
    }
  }

  @Override
  public List<CheckpointInfo> checkpoints() {
    JobID id = jobId.get();
    try {
      return cluster.get().checkpoints(id);
    } catch (Exception e) {
      throw new IllegalStateException("The checkpoints of job " + id + " are unavailable", e);
    }
  }

  @Override
  public void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
    JobID id = jobId.get();
    try {
      cluster.get().awaitRunning(id, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Job " + id + " did not run: " + e.getMessage(), e);
    }
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    JobID id = jobId.get();
    try {
      return cluster.get().awaitCompletedCheckpointAfter(id, after, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(
          "No checkpoint of job " + id + " completed: " + e.getMessage(), e);
    }
  }
}
