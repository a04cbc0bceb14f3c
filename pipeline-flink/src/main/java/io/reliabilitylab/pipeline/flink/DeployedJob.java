package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.ClusterLease;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RetainedCheckpoints;
import io.reliabilitylab.pipeline.flink.cluster.SharedMiniClusters;
import io.reliabilitylab.pipeline.flink.cluster.SharedProcessClusters;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FlinkPipeline}'s job as deployed: which job runs under which id on which cluster, and
 * whether the lab lost that cluster; with what changes them (losing the cluster, submitting a
 * restored job on it or on a fresh one) and what reads them without the pipeline's other parts
 * (savepoints, retained checkpoints). Other threads read these while a restore swaps them, so each
 * is volatile and read anew on every use: the pipeline keeps no copy of them.
 */
final class DeployedJob {

  // The pipeline's logger: these lines are the pipeline's, wherever the code that logs them lives.
  private static final Logger LOG = LoggerFactory.getLogger(FlinkPipeline.class);

  private final Supplier<String> pipelineName;
  private final PipelineConfig config;
  // Replaced by a fresh MiniCluster when the job is restored after the cluster was lost.
  private volatile FlinkCluster cluster;
  private volatile boolean clusterLost;
  private volatile OrdersJob job;
  // Changes when the job is restored from a savepoint or retained checkpoint as a new job.
  private volatile JobID jobId;
  // When the current job's submission returned (a pipeline is built right after it), for the log
  // line that measures job start to streaming.
  private volatile long submittedNanos = System.nanoTime();

  DeployedJob(
      FlinkCluster cluster,
      OrdersJob job,
      JobID jobId,
      Supplier<String> pipelineName,
      PipelineConfig config) {
    this.cluster = cluster;
    this.job = job;
    this.jobId = jobId;
    this.pipelineName = pipelineName;
    this.config = config;
  }

  FlinkCluster cluster() {
    return cluster;
  }

  boolean clusterLost() {
    return clusterLost;
  }

  OrdersJob job() {
    return job;
  }

  JobID id() {
    return jobId;
  }

  long submittedNanos() {
    return submittedNanos;
  }

  /** The cluster of processes the lab started for the job, while it is not lost. */
  ProcessFlinkCluster processCluster() {
    ProcessFlinkCluster processes = ClusterDescription.processesOf(cluster);
    if (processes != null && !clusterLost) {
      return processes;
    }
    throw new UnsupportedOperationException(
        clusterLost
            ? "The " + pipelineName.get() + " pipeline's cluster was lost; restore the job first"
            : "The "
                + pipelineName.get()
                + " pipeline's cluster at "
                + cluster.restAddress()
                + " is not a cluster of processes the lab started");
  }

  /** The embedded MiniCluster the job runs on, while it is not lost. */
  MiniClusterRunner miniCluster() {
    MiniClusterRunner mini = ClusterDescription.miniClusterOf(cluster);
    if (mini != null && !clusterLost) {
      return mini;
    }
    throw new UnsupportedOperationException(
        clusterLost
            ? "The "
                + pipelineName.get()
                + " pipeline's cluster was lost; restore the job before controlling"
                + " TaskManagers"
            : "The "
                + pipelineName.get()
                + " pipeline controls TaskManagers only on its embedded MiniCluster, not on"
                + " the session cluster at "
                + cluster.restAddress());
  }

  String stopWithSavepoint() throws Exception {
    return cluster.stopWithSavepoint(jobId, savepointDirectory());
  }

  String triggerSavepoint() throws Exception {
    return cluster.triggerSavepoint(jobId, savepointDirectory());
  }

  private Path savepointDirectory() {
    return Path.of(config.option(LabOptions.CHECKPOINTS_PATH).orElseThrow()).resolve("savepoints");
  }

  /** See {@link FlinkPipeline#latestRetainedCheckpoint()}. */
  String latestRetainedCheckpoint() throws Exception {
    URI location = job.settings().checkpointLocation();
    URI directory =
        location != null
            ? location
            : job.settings().checkpointDirectory().toAbsolutePath().normalize().toUri();
    RetainedCheckpoints.Found latest =
        RetainedCheckpoints.latest(directory, jobId.toHexString())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "No complete retained checkpoint (chk-<n>/_metadata) under "
                            + directory
                            + " for job "
                            + jobId
                            + " or an earlier one; await a completed checkpoint first"));
    String uri = job.settings().storageUriOf(latest.directory()).toString();
    // an existing directory's URI ends in '/'; Flink names checkpoints without it
    return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
  }

  /**
   * The job's id, for a restore under it: Flink's dispatcher refuses an id it ran before, so only
   * once the cluster is lost (a fresh one then takes the job).
   */
  JobID idToKeepOnFreshCluster() {
    if (!clusterLost) {
      throw new IllegalStateException(
          "Job "
              + jobId
              + " can be restored under its own id only on a fresh cluster (Flink refuses a"
              + " duplicate job id); call loseCluster() first");
    }
    return jobId;
  }

  /** After the cluster was lost, starts a fresh one with the same settings for the restore. */
  void replaceClusterIfLost() throws Exception {
    if (clusterLost) {
      // The lost cluster was ours: a fresh one with the same settings takes the job.
      ProcessFlinkCluster lost = ClusterDescription.processesOf(cluster);
      if (lost != null) {
        cluster = SharedProcessClusters.acquire(lost.settings(), lost.directory());
      } else {
        MiniClusterSettings settings = ClusterDescription.miniClusterOf(cluster).settings();
        cluster =
            cluster instanceof ClusterLease<?>
                ? SharedMiniClusters.acquire(settings)
                : MiniClusterRunner.start(settings);
      }
      clusterLost = false;
      LOG.info("Started a new cluster at {} after the cluster was lost", cluster.restAddress());
    }
  }

  /**
   * Submits {@code restored} from the savepoint or checkpoint at {@code path} (under {@code
   * keptId}, or a new id when null), and makes it the deployed job; returns its id.
   */
  JobID submitRestored(OrdersJob restored, String path, @Nullable JobID keptId) throws Exception {
    submittedNanos = System.nanoTime();
    JobID restoredId = cluster.submit(restored, path, keptId);
    job = restored;
    jobId = restoredId;
    return restoredId;
  }

  /** See {@link FlinkPipeline#loseCluster()}. */
  void loseCluster() {
    ProcessFlinkCluster processes = ClusterDescription.processesOf(cluster);
    if (processes != null && !clusterLost) {
      clusterLost = true;
      LOG.info(
          "Killing every process of the cluster at {} with job {}", cluster.restAddress(), jobId);
      ClusterDescription.crash(processes);
      return;
    }
    MiniClusterRunner mini = ClusterDescription.miniClusterOf(cluster);
    if (mini == null) {
      throw new UnsupportedOperationException(
          "The "
              + pipelineName.get()
              + " pipeline can lose only an embedded MiniCluster it started; the session"
              + " cluster at "
              + cluster.restAddress()
              + " is not the lab's to stop. Use stop-with-savepoint and restore instead.");
    }
    if (clusterLost) {
      throw new IllegalStateException(
          "The cluster of job " + jobId + " is lost already; restore the job first");
    }
    clusterLost = true;
    LOG.info("Losing the MiniCluster at {} with job {}", cluster.restAddress(), jobId);
    if (cluster instanceof ClusterLease<?>) {
      SharedMiniClusters.lose(mini);
    } else {
      mini.close();
    }
  }
}
