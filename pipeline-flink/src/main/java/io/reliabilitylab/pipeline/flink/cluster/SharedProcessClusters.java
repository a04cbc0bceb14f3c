package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Process clusters shared by the scenarios of one JVM, so that a suite starts its cluster once: a
 * cluster started with equal settings is made healthy again and reused. A lease's {@code close()}
 * leaves the cluster running; every shared cluster stops at JVM exit or by {@link #closeAll()}.
 *
 * <pre>{@code
 * try (SharedProcessClusters.Lease lease = SharedProcessClusters.acquire(settings, runDirectory)) {
 *   JobID id = lease.submit(job);
 *   lease.cluster().kill(lease.cluster().liveTaskManagersOf(id).get(0));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class SharedProcessClusters {

  private static final Logger LOG = LoggerFactory.getLogger(SharedProcessClusters.class);
  private static final Map<ProcessClusterSettings, ProcessFlinkCluster> CLUSTERS = new HashMap<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(SharedProcessClusters::closeAll, "srl-shared-clusters-stop"));
  }

  private SharedProcessClusters() {}

  /**
   * A running, healthy cluster started with equal settings in this JVM, or a new one started in
   * {@code directory} (a reused cluster keeps the directory it was started in).
   */
  public static synchronized Lease acquire(ProcessClusterSettings settings, Path directory)
      throws Exception {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(directory, "directory");
    ProcessFlinkCluster existing = CLUSTERS.get(settings);
    if (existing != null && !existing.closed()) {
      try {
        existing.ensureHealthy(settings.startTimeout());
        LOG.info(
            "Reusing process cluster {} ({}), started in {}",
            existing.restAddress(),
            settings.optionText(),
            existing.directory());
        return new Lease(existing);
      } catch (Exception e) {
        LOG.warn(
            "The shared process cluster cannot be made healthy ({}); starting a new one",
            e.toString());
        existing.close();
      }
    }
    CLUSTERS.remove(settings);
    ProcessFlinkCluster started = ProcessFlinkCluster.start(settings, directory);
    LOG.info(
        "Started shared process cluster ({}) in {} ms",
        settings.optionText(),
        started.startTime().toMillis());
    CLUSTERS.put(settings, started);
    return new Lease(started);
  }

  /** Stops every shared cluster. */
  public static synchronized void closeAll() {
    for (ProcessFlinkCluster cluster : CLUSTERS.values()) {
      cluster.close();
    }
    CLUSTERS.clear();
  }

  /** A shared cluster, seen as a {@link FlinkCluster} whose {@code close()} leaves it running. */
  @API(status = EXPERIMENTAL)
  public static final class Lease implements FlinkCluster {
    private final ProcessFlinkCluster cluster;

    private Lease(ProcessFlinkCluster cluster) {
      this.cluster = cluster;
    }

    /** The shared cluster, for process control. */
    public ProcessFlinkCluster cluster() {
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

    /** Leaves the shared cluster running for the next lease. */
    @Override
    public void close() {}
  }
}
