package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A cluster shared by the scenarios of one JVM ({@link SharedProcessClusters}, {@link
 * SharedMiniClusters}), seen as a {@link FlinkCluster} whose {@code close()} leaves it running for
 * the next lease.
 *
 * @param <C> the kind of cluster: processes or an embedded MiniCluster
 */
@API(status = EXPERIMENTAL)
public final class ClusterLease<C extends RestFlinkCluster> implements FlinkCluster {
  private final C cluster;
  private final Runnable release;
  private final AtomicBoolean released = new AtomicBoolean();

  ClusterLease(C cluster, Runnable release) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.release = Objects.requireNonNull(release, "release");
  }

  /** The shared cluster, for control of its TaskManagers and JobManagers. */
  public C cluster() {
    return cluster;
  }

  @Override
  public URI restAddress() {
    return cluster.restAddress();
  }

  @Override
  public JobID submit(FlinkJob job, @Nullable String restorePath, @Nullable JobID jobId)
      throws Exception {
    return cluster.submit(job, restorePath, jobId);
  }

  @Override
  public JobStatus status(JobID job) throws Exception {
    return cluster.status(job);
  }

  @Override
  public long restartCount(JobID job) throws Exception {
    return cluster.restartCount(job);
  }

  @Override
  public List<JobFailure> exceptionHistory(JobID job) throws Exception {
    return cluster.exceptionHistory(job);
  }

  @Override
  public List<CheckpointInfo> checkpoints(JobID job) throws Exception {
    return cluster.checkpoints(job);
  }

  @Override
  public void cancel(JobID job) throws Exception {
    cluster.cancel(job);
  }

  @Override
  public String stopWithSavepoint(JobID job, Path directory) throws Exception {
    return cluster.stopWithSavepoint(job, directory);
  }

  @Override
  public String triggerSavepoint(JobID job, Path directory) throws Exception {
    return cluster.triggerSavepoint(job, directory);
  }

  @Override
  public void awaitRunning(JobID job, Duration timeout) throws Exception {
    cluster.awaitRunning(job, timeout);
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(JobID job, Instant after, Duration timeout)
      throws Exception {
    return cluster.awaitCompletedCheckpointAfter(job, after, timeout);
  }

  /** Leaves the shared cluster running and hands it back for the next lease (once). */
  @Override
  public void close() {
    if (released.compareAndSet(false, true)) {
      release.run();
    }
  }
}
