package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.catalog.EmbeddedSinkCatalog;
import io.reliabilitylab.pipeline.flink.cluster.ClusterLease;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RestFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RetainedCheckpoints;
import io.reliabilitylab.pipeline.flink.cluster.SharedMiniClusters;
import io.reliabilitylab.pipeline.flink.cluster.SharedProcessClusters;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.BrokerNetworkLink;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobManagerControl;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import io.reliabilitylab.spi.pipeline.ZooKeeperNetworkLink;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running reference pipeline on Flink as the lab sees it: the job on its cluster ({@link
 * JobControl}), the two Iceberg tables ({@link TableAccess}, offered by {@link #tables()}), its
 * fault points, savepoints and retained checkpoints, its source ({@link SourceEndpointAccess}), the
 * loss of the whole cluster ({@link #loseCluster()}), and on a cluster the lab started its
 * TaskManagers ({@link TaskManagerControl}: inside the JVM on a MiniCluster, as processes on a
 * cluster of processes) and a highly available cluster's JobManagers ({@link JobManagerControl}).
 * Closing it cancels the job and stops a cluster it started (a shared cluster of processes stays
 * for the next scenario).
 */
public abstract class FlinkPipeline
    implements PipelineUnderTest,
        JobControl,
        FaultPoints,
        SavepointControl,
        SourceEndpointAccess,
        SourceNetworkLink,
        BrokerNetworkLink,
        ZooKeeperNetworkLink {

  private static final Logger LOG = LoggerFactory.getLogger(FlinkPipeline.class);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * What a Flink pipeline offers on its embedded MiniCluster; see {@link #capabilities()} for the
   * other clusters.
   */
  public static final Set<Class<? extends PipelineCapability>> EMBEDDED_CAPABILITIES =
      Set.of(
          JobControl.class,
          TableAccess.class,
          FaultPoints.class,
          SavepointControl.class,
          TaskManagerControl.class,
          TableMaintenance.class,
          SourceEndpointAccess.class);

  /** What losing an embedded cluster does and does not show. */
  public static final String CLUSTER_LOSS_CLAIM_BOUNDARY =
      "the embedded MiniCluster is shut down inside the JVM without a savepoint (its job is"
          + " suspended, its retained checkpoints stay); the JVM and its process are not killed";

  /** What losing a cluster of processes does and does not show. */
  public static final String PROCESS_CLUSTER_LOSS_CLAIM_BOUNDARY =
      "every JobManager and TaskManager JVM of the lab's cluster is killed with SIGKILL at once"
          + " (ZooKeeper and the HA storage go with them); the job is restored from its retained"
          + " checkpoint on a new cluster; the machine and its disks stay up";

  // Replaced by a fresh MiniCluster when the job is restored after the cluster was lost.
  private volatile FlinkCluster cluster;
  private volatile boolean clusterLost;
  private volatile OrdersJob job;
  // Changes when the job is restored from a savepoint or retained checkpoint as a new job.
  private volatile JobID jobId;
  // When the current job's submission returned (a pipeline is built right after it), for the log
  // line that measures job start to streaming.
  private volatile long submittedNanos = System.nanoTime();
  protected final PipelineConfig config;
  private final SinkTableAccess tables;
  private final EmbeddedTaskManagers embeddedTaskManagers;
  private final ProcessTaskManagers processTaskManagers;
  private final ProcessJobManagers processJobManagers;
  private final JobFaultPoints faultPoints;
  // The lab's proxies the pipeline's connections go through, when a network fault needs them.
  private volatile PipelineProxies proxies = PipelineProxies.none();

  protected FlinkPipeline(FlinkCluster cluster, OrdersJob job, JobID jobId, PipelineConfig config) {
    this.cluster = cluster;
    this.job = job;
    this.jobId = jobId;
    this.config = config;
    this.tables = new SinkTableAccess(this::name, job.settings());
    this.embeddedTaskManagers = new EmbeddedTaskManagers(this::miniCluster, this::currentJobId);
    this.processTaskManagers = new ProcessTaskManagers(this::processCluster, this::currentJobId);
    this.processJobManagers = new ProcessJobManagers(this::processCluster);
    this.faultPoints =
        JobFaultPoints.of(
            ClusterDescription.miniClusterOf(cluster) != null
                ? null
                : job.settings().faultChannel(),
            () -> this.job.faultPoints());
  }

  private ProcessFlinkCluster processCluster() {
    ProcessFlinkCluster processes = ClusterDescription.processesOf(cluster);
    if (processes != null && !clusterLost) {
      return processes;
    }
    throw new UnsupportedOperationException(
        clusterLost
            ? "The " + name() + " pipeline's cluster was lost; restore the job first"
            : "The "
                + name()
                + " pipeline's cluster at "
                + cluster.restAddress()
                + " is not a cluster of processes the lab started");
  }

  /**
   * Tells {@code listener} that the job is submitted, then lets the job's first element go (its
   * {@linkplain OrdersJobSettings#startGate() start gate}): a fault the listener arms counts from
   * the job's first element, however fast the cluster starts the job. The gate opens also when the
   * listener fails (the caller then closes the pipeline).
   */
  public void jobSubmitted(JobSubmittedListener listener) throws Exception {
    try {
      listener.jobSubmitted(this);
    } finally {
      String gate = job.settings().startGate();
      if (gate != null) {
        faultPoints.openStartGate(gate);
      }
    }
  }

  /**
   * Asks the job's fault points, through their channel, to answer from every process that runs the
   * job (its JobManager and the TaskManagers of its tasks): {@link FaultPoints} is offered on a
   * session cluster only once this succeeded, and never once it failed. A no-op while the points
   * run in this JVM.
   */
  public void verifyFaultChannel(Duration timeout) {
    faultPoints.verify(timeout, this::taskManagerCountOfTheJob);
  }

  private int taskManagerCountOfTheJob() throws Exception {
    RestFlinkCluster rest = restCluster();
    if (rest == null) {
      return 1;
    }
    Set<String> running = rest.taskManagersOf(jobId);
    running.retainAll(rest.registeredTaskManagers());
    return running.size();
  }

  /**
   * Waits until the job runs and its source streams: changes written from now on reach the job as
   * changes, not folded into a snapshot.
   */
  public void awaitStreaming(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    cluster.awaitRunning(jobId, timeout);
    awaitSourceStreaming(Duration.between(Instant.now(), deadline));
    LOG.info(
        "Job {} streams from its source {} ms after its submission returned",
        jobId,
        Duration.ofNanos(System.nanoTime() - submittedNanos).toMillis());
  }

  /**
   * Called before the pipeline submits a job itself (a restore), so that the source can tell the
   * new job's connections from those of the job before it.
   */
  protected void beforeSubmit() throws Exception {}

  /** Waits, once the job runs, until its source streams; throws TimeoutException after timeout. */
  protected abstract void awaitSourceStreaming(Duration timeout) throws Exception;

  /** The versions of the source's stack (connector, client), for {@link #stackVersions()}. */
  protected abstract Map<String, String> sourceVersions();

  /** The job as it runs now (it changes when restored). */
  protected OrdersJob job() {
    return job;
  }

  /** The job's id as it runs now (it changes when restored as a new job). */
  protected JobID currentJobId() {
    return jobId;
  }

  /** The cluster that answers Flink's REST API (a shared cluster's lease unwrapped), if any. */
  protected @Nullable RestFlinkCluster restCluster() {
    return ClusterDescription.restOf(cluster);
  }

  /** The cluster the job runs on now (a fresh one after {@link #loseCluster()} and a restore). */
  protected FlinkCluster cluster() {
    return cluster;
  }

  /**
   * {@link #EMBEDDED_CAPABILITIES} on an embedded MiniCluster; on a cluster of processes, its
   * TaskManagers as processes ({@link TaskManagerProcessControl}) and, with a standby, its
   * JobManagers ({@link JobManagerControl}), but no {@link TableMaintenance}; on a session cluster
   * neither TaskManagers nor maintenance. {@link FaultPoints} only when the job was built with its
   * fault points and they can be reached: in this JVM, or through a fault channel whose round trip
   * has not failed (on a session cluster: has succeeded).
   */
  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    FlinkCluster current = cluster;
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(EMBEDDED_CAPABILITIES);
    ProcessFlinkCluster processes = ClusterDescription.processesOf(current);
    // A Hadoop catalog's commit lock lives in one JVM: compacting from the lab's JVM is safe only
    // while the job commits from this JVM too. A REST catalog resolves concurrent commits itself.
    boolean sharedCommits = job.settings().catalog().commitsAcrossProcesses();
    if (processes != null) {
      if (!sharedCommits) {
        offered.remove(TableMaintenance.class);
      }
      offered.add(TaskManagerProcessControl.class);
      if (processes.highAvailability()) {
        offered.add(JobManagerControl.class);
        offered.add(ZooKeeperNetworkLink.class);
      }
    } else if (ClusterDescription.miniClusterOf(current) == null) {
      // Only an embedded cluster's TaskManagers can be terminated and replaced by the lab.
      offered.remove(TaskManagerControl.class);
      if (!sharedCommits) {
        offered.remove(TableMaintenance.class);
      }
    }
    if (EmbeddedSinkCatalog.serving(job.settings().catalog()).isPresent()) {
      offered.add(SinkCatalogControl.class);
    }
    if (job.faultPoints().isEmpty() || !faultPointsReachable(current)) {
      offered.remove(FaultPoints.class);
    }
    offered.addAll(proxies.capabilities());
    return Set.copyOf(offered);
  }

  private boolean faultPointsReachable(FlinkCluster current) {
    if (ClusterDescription.miniClusterOf(current) != null) {
      return true;
    }
    FaultChannelState state = faultPoints.state();
    return ClusterDescription.processesOf(current) != null ? !state.failed() : state.verified();
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (!capabilities().contains(type)) {
      return Optional.empty();
    }
    Object offered = this;
    if (type == TableAccess.class) {
      offered = tables;
    } else if (type == TableMaintenance.class) {
      offered = tables.maintenance();
    } else if (type == TaskManagerControl.class || type == TaskManagerProcessControl.class) {
      offered =
          ClusterDescription.processesOf(cluster) != null
              ? processTaskManagers
              : embeddedTaskManagers;
    } else if (type == JobManagerControl.class) {
      offered = processJobManagers;
    } else if (type == SinkCatalogControl.class) {
      offered = EmbeddedSinkCatalog.serving(job.settings().catalog()).orElseThrow().control();
    }
    return Optional.of(type.cast(offered));
  }

  @Override
  public CommitConsistency commitConsistency() {
    return job.commitConsistency();
  }

  @Override
  public SourceEndpoint sourceEndpoint() {
    return config.source();
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>(job.effectiveConfiguration());
    settings.putAll(ClusterDescription.of(cluster));
    settings.put("fault.channel", faultPoints.state().text());
    return settings;
  }

  @Override
  public Map<String, String> stackVersions() {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("flink", EnvironmentInformation.getVersion());
    versions.putAll(sourceVersions());
    // Iceberg's jars are built by Gradle (no pom.properties); it reports its own version.
    versions.put("iceberg", org.apache.iceberg.IcebergBuild.version());
    versions.put("java", System.getProperty("java.version"));
    return versions;
  }

  /** The version Maven recorded in a jar on the class path (its pom.properties), or "unknown". */
  protected static String mavenVersion(String groupId, String artifactId) {
    String resource = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    try (var in = FlinkPipeline.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return "unknown";
      }
      java.util.Properties properties = new java.util.Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  // JobControl

  @Override
  public String jobId() {
    return jobId.toHexString();
  }

  @Override
  public JobState state() {
    try {
      JobStatus status = cluster.status(jobId);
      return JobState.valueOf(status.name());
    } catch (Exception e) {
      LOG.debug("Job status of {} unavailable", jobId, e);
      return JobState.UNKNOWN;
    }
  }

  @Override
  public long restartCount() {
    try {
      return cluster.restartCount(jobId);
    } catch (Exception e) {
      throw new IllegalStateException("The restart count of job " + jobId + " is unavailable", e);
    }
  }

  @Override
  public List<JobFailure> exceptionHistory() {
    try {
      return cluster.exceptionHistory(jobId);
    } catch (Exception e) {
      throw new IllegalStateException(
          "The exception history of job " + jobId + " is unavailable", e);
    }
  }

  @Override
  public List<CheckpointInfo> checkpoints() {
    try {
      return cluster.checkpoints(jobId);
    } catch (Exception e) {
      throw new IllegalStateException("The checkpoints of job " + jobId + " are unavailable", e);
    }
  }

  @Override
  public void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
    try {
      cluster.awaitRunning(jobId, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Job " + jobId + " did not run: " + e.getMessage(), e);
    }
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    try {
      return cluster.awaitCompletedCheckpointAfter(jobId, after, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(
          "No checkpoint of job " + jobId + " completed: " + e.getMessage(), e);
    }
  }

  // FaultPoints: in this JVM through the switchboard (MiniCluster), else through the job's channel.

  @Override
  public Set<String> available() {
    return job.faultPoints();
  }

  @Override
  public void arm(String point, FaultPosition position, String action, String faultId) {
    if (!available().contains(point)) {
      throw new IllegalArgumentException(
          "The " + name() + " job has no fault point '" + point + "'; it has: " + available());
    }
    faultPoints.arm(point, position, action, faultId);
  }

  @Override
  public void disarm(String faultId) {
    faultPoints.disarm(faultId);
  }

  @Override
  public Optional<Instant> firedAt(String faultId) {
    return faultPoints.firedAt(faultId);
  }

  private MiniClusterRunner miniCluster() {
    MiniClusterRunner mini = ClusterDescription.miniClusterOf(cluster);
    if (mini != null && !clusterLost) {
      return mini;
    }
    throw new UnsupportedOperationException(
        clusterLost
            ? "The "
                + name()
                + " pipeline's cluster was lost; restore the job before controlling"
                + " TaskManagers"
            : "The "
                + name()
                + " pipeline controls TaskManagers only on its embedded MiniCluster, not on"
                + " the session cluster at "
                + cluster.restAddress());
  }

  // SavepointControl

  @Override
  public String stopWithSavepoint(Duration timeout) throws Exception {
    return cluster.stopWithSavepoint(jobId, savepointDirectory());
  }

  @Override
  public String triggerSavepoint(Duration timeout) throws Exception {
    return cluster.triggerSavepoint(jobId, savepointDirectory());
  }

  private Path savepointDirectory() {
    return Path.of(config.option(LabOptions.CHECKPOINTS_PATH).orElseThrow()).resolve("savepoints");
  }

  @Override
  public String restore(String path, int parallelism) throws Exception {
    return restore(path, parallelism, null);
  }

  /**
   * Restores the job under the id it had, as Flink's application mode does. Flink's dispatcher
   * refuses an id it ran before, even a finished one, so this works only on a fresh MiniCluster:
   * after {@link #loseCluster()}.
   */
  @Override
  public String restoreKeepingJobId(String path, int parallelism) throws Exception {
    if (!clusterLost) {
      throw new IllegalStateException(
          "Job "
              + jobId
              + " can be restored under its own id only on a fresh cluster (Flink refuses a"
              + " duplicate job id); call loseCluster() first");
    }
    return restore(path, parallelism, jobId);
  }

  private String restore(String path, int parallelism, @Nullable JobID keptId) throws Exception {
    OrdersJob restored = job.withParallelism(parallelism);
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
    beforeSubmit();
    submittedNanos = System.nanoTime();
    JobID restoredId = cluster.submit(restored, path, keptId);
    job = restored;
    jobId = restoredId;
    awaitStreaming(RESTORE_TIMEOUT);
    return restoredId.toHexString();
  }

  /**
   * The newest complete checkpoint of the current job on the checkpoint storage itself (a {@code
   * chk-<n>} directory with its {@code _metadata}), so that it answers after the cluster is gone;
   * when the current job has none yet, the most recently completed checkpoint of an earlier job.
   */
  @Override
  public String latestRetainedCheckpoint() throws Exception {
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
   * Stops the embedded MiniCluster without a savepoint and without cancelling the job: the job is
   * suspended as the cluster goes down and its checkpoints, retained on cancellation, stay on the
   * storage. {@link #restore} then starts a fresh MiniCluster. The claim boundary is {@link
   * #CLUSTER_LOSS_CLAIM_BOUNDARY}.
   */
  @Override
  public void loseCluster() {
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
              + name()
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

  /** The pipeline's two Iceberg tables, read through the sink's catalog. */
  protected SinkTableAccess tables() {
    return tables;
  }

  /**
   * Says that the pipeline's connections go through {@code through} (its provider made them), which
   * then offers their links and closes them with the pipeline.
   */
  public final void routedThrough(PipelineProxies through) {
    this.proxies = through;
  }

  @Override
  public NetworkLink sourceLink() {
    return proxies
        .source()
        .orElseThrow(
            () ->
                new IllegalStateException(name() + " reaches its source without the lab's proxy"));
  }

  @Override
  public NetworkLink brokerLink() {
    return proxies
        .broker()
        .orElseThrow(
            () ->
                new IllegalStateException(name() + " reaches its broker without the lab's proxy"));
  }

  @Override
  public NetworkLink zooKeeperLink() {
    return processCluster()
        .zooKeeperLink()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    name()
                        + " runs on no cluster of processes with ZooKeeper behind the lab's proxy"));
  }

  @Override
  public List<String> zooKeeperSymptomsSince(Instant since, int limit) {
    return processCluster().zooKeeperSymptomsSince(since, limit);
  }

  @Override
  public void close() {
    try {
      if (clusterLost) {
        tables.close();
        return;
      }
      try {
        cluster.cancelAndAwaitEnd(jobId, CANCEL_TIMEOUT);
      } catch (Exception e) {
        LOG.warn("Could not cancel job {}: {}", jobId, e.getMessage());
      } finally {
        try {
          tables.close();
        } finally {
          cluster.close();
        }
      }
    } finally {
      // after the job: a proxy closed under a running job would look like a network fault
      proxies.close();
    }
  }
}
