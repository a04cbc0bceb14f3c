package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.catalog.EmbeddedSinkCatalog;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RestFlinkCluster;
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

  // Cluster, job and job id change on a restore and a cluster loss: asked of it on every use.
  private final DeployedJob deployed;
  private final JobStatusQueries jobStatus;
  protected final PipelineConfig config;
  private final SinkTableAccess tables;
  private final EmbeddedTaskManagers embeddedTaskManagers;
  private final ProcessTaskManagers processTaskManagers;
  private final ProcessJobManagers processJobManagers;
  private final JobFaultPoints faultPoints;
  private final NetworkLinks links;

  protected FlinkPipeline(FlinkCluster cluster, OrdersJob job, JobID jobId, PipelineConfig config) {
    this.deployed = new DeployedJob(cluster, job, jobId, this::name, config);
    this.jobStatus = new JobStatusQueries(deployed::cluster, deployed::id);
    this.config = config;
    this.tables = new SinkTableAccess(this::name, job.settings());
    this.embeddedTaskManagers = new EmbeddedTaskManagers(deployed::miniCluster, this::currentJobId);
    this.processTaskManagers =
        new ProcessTaskManagers(deployed::processCluster, this::currentJobId);
    this.processJobManagers = new ProcessJobManagers(deployed::processCluster);
    this.faultPoints =
        JobFaultPoints.of(
            ClusterDescription.miniClusterOf(cluster) != null
                ? null
                : job.settings().faultChannel(),
            () -> deployed.job().faultPoints());
    this.links = new NetworkLinks(this::name, deployed::processCluster);
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
      String gate = deployed.job().settings().startGate();
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
    Set<String> running = rest.taskManagersOf(deployed.id());
    running.retainAll(rest.registeredTaskManagers());
    return running.size();
  }

  /**
   * Waits until the job runs and its source streams: changes written from now on reach the job as
   * changes, not folded into a snapshot.
   */
  public void awaitStreaming(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    deployed.cluster().awaitRunning(deployed.id(), timeout);
    awaitSourceStreaming(Duration.between(Instant.now(), deadline));
    LOG.info(
        "Job {} streams from its source {} ms after its submission returned",
        deployed.id(),
        Duration.ofNanos(System.nanoTime() - deployed.submittedNanos()).toMillis());
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
    return deployed.job();
  }

  /** The job's id as it runs now (it changes when restored as a new job). */
  protected JobID currentJobId() {
    return deployed.id();
  }

  /** The cluster that answers Flink's REST API (a shared cluster's lease unwrapped), if any. */
  protected @Nullable RestFlinkCluster restCluster() {
    return ClusterDescription.restOf(deployed.cluster());
  }

  /** The cluster the job runs on now (a fresh one after {@link #loseCluster()} and a restore). */
  protected FlinkCluster cluster() {
    return deployed.cluster();
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
    FlinkCluster current = deployed.cluster();
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(EMBEDDED_CAPABILITIES);
    ProcessFlinkCluster processes = ClusterDescription.processesOf(current);
    // A Hadoop catalog's commit lock lives in one JVM: compacting from the lab's JVM is safe only
    // while the job commits from this JVM too. A REST catalog resolves concurrent commits itself.
    boolean sharedCommits = deployed.job().settings().catalog().commitsAcrossProcesses();
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
    if (EmbeddedSinkCatalog.serving(deployed.job().settings().catalog()).isPresent()) {
      offered.add(SinkCatalogControl.class);
    }
    if (deployed.job().faultPoints().isEmpty() || !faultPoints.reachableOn(current)) {
      offered.remove(FaultPoints.class);
    }
    offered.addAll(links.proxies().capabilities());
    return Set.copyOf(offered);
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
          ClusterDescription.processesOf(deployed.cluster()) != null
              ? processTaskManagers
              : embeddedTaskManagers;
    } else if (type == JobManagerControl.class) {
      offered = processJobManagers;
    } else if (type == SinkCatalogControl.class) {
      offered =
          EmbeddedSinkCatalog.serving(deployed.job().settings().catalog()).orElseThrow().control();
    }
    return Optional.of(type.cast(offered));
  }

  @Override
  public CommitConsistency commitConsistency() {
    return deployed.job().commitConsistency();
  }

  @Override
  public SourceEndpoint sourceEndpoint() {
    return config.source();
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>(deployed.job().effectiveConfiguration());
    settings.putAll(ClusterDescription.of(deployed.cluster()));
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

  // JobControl: what the cluster reports of the job

  @Override
  public String jobId() {
    return jobStatus.jobId();
  }

  @Override
  public JobState state() {
    return jobStatus.state();
  }

  @Override
  public long restartCount() {
    return jobStatus.restartCount();
  }

  @Override
  public List<JobFailure> exceptionHistory() {
    return jobStatus.exceptionHistory();
  }

  @Override
  public List<CheckpointInfo> checkpoints() {
    return jobStatus.checkpoints();
  }

  @Override
  public void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
    jobStatus.awaitRunning(timeout);
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    return jobStatus.awaitCompletedCheckpointAfter(after, timeout);
  }

  // FaultPoints: in this JVM through the switchboard (MiniCluster), else through the job's channel.

  @Override
  public Set<String> available() {
    return deployed.job().faultPoints();
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

  // SavepointControl, with the loss of the cluster: the deployed job's

  @Override
  public String stopWithSavepoint(Duration timeout) throws Exception {
    return deployed.stopWithSavepoint();
  }

  @Override
  public String triggerSavepoint(Duration timeout) throws Exception {
    return deployed.triggerSavepoint();
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
    return restore(path, parallelism, deployed.idToKeepOnFreshCluster());
  }

  private String restore(String path, int parallelism, @Nullable JobID keptId) throws Exception {
    OrdersJob restored = deployed.job().withParallelism(parallelism);
    deployed.replaceClusterIfLost();
    beforeSubmit();
    JobID restoredId = deployed.submitRestored(restored, path, keptId);
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
    return deployed.latestRetainedCheckpoint();
  }

  /**
   * Stops the embedded MiniCluster without a savepoint and without cancelling the job: the job is
   * suspended as the cluster goes down and its checkpoints, retained on cancellation, stay on the
   * storage. {@link #restore} then starts a fresh MiniCluster. The claim boundary is {@link
   * #CLUSTER_LOSS_CLAIM_BOUNDARY}.
   */
  @Override
  public void loseCluster() {
    deployed.loseCluster();
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
    links.routeThrough(through);
  }

  @Override
  public NetworkLink sourceLink() {
    return links.sourceLink();
  }

  @Override
  public NetworkLink brokerLink() {
    return links.brokerLink();
  }

  @Override
  public NetworkLink zooKeeperLink() {
    return links.zooKeeperLink();
  }

  @Override
  public List<String> zooKeeperSymptomsSince(Instant since, int limit) {
    return links.zooKeeperSymptomsSince(since, limit);
  }

  @Override
  public void close() {
    try {
      if (deployed.clusterLost()) {
        tables.close();
        return;
      }
      try {
        deployed.cluster().cancelAndAwaitEnd(deployed.id(), CANCEL_TIMEOUT);
      } catch (Exception e) {
        LOG.warn("Could not cancel job {}: {}", deployed.id(), e.getMessage());
      } finally {
        try {
          tables.close();
        } finally {
          deployed.cluster().close();
        }
      }
    } finally {
      // after the job: a proxy closed under a running job would look like a network fault
      links.proxies().close();
    }
  }
}
