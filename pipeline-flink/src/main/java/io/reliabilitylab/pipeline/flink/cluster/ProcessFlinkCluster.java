package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.faults.network.TcpProxy;
import io.reliabilitylab.pipeline.flink.cluster.ProcessClusterConfig.JobManagerPorts;
import io.reliabilitylab.process.LabProcess;
import io.reliabilitylab.process.LabProcesses;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink standalone session cluster of real processes the lab launches from its own class path:
 * JobManager JVM(s) ({@code StandaloneSessionClusterEntrypoint}), TaskManager JVMs ({@code
 * TaskManagerRunner}) and, with a standby JobManager, a ZooKeeper server ({@code
 * FlinkZooKeeperQuorumPeer}). Every process is started through {@link LabProcesses}, so none
 * outlives the lab; each logs to {@code <directory>/logs/<role>.log}. TaskManagers are killed,
 * paused and resumed by signal; JobManagers killed and restarted.
 *
 * <pre>{@code
 * try (ProcessFlinkCluster cluster =
 *     ProcessFlinkCluster.start(ProcessClusterSettings.parse("processes:2"), runDirectory)) {
 *   JobID id = cluster.submit(job); // the job's classes are on the cluster's class path
 *   cluster.awaitRunning(id, Duration.ofSeconds(30));
 *   cluster.kill(cluster.liveTaskManagersOf(id).get(0)); // SIGKILL: exit status 137
 *   cluster.startTaskManager();
 * }
 * }</pre>
 *
 * <p>Jobs are submitted without user jars: the processes run the lab's class path, which holds the
 * job's classes (child-first loading of a shipped jar would meet duplicate classes).
 */
@API(status = EXPERIMENTAL)
public final class ProcessFlinkCluster extends RestFlinkCluster {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessFlinkCluster.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final ProcessClusterConfig config;
  private @Nullable LabProcess zooKeeper;
  private final @Nullable TcpProxy zooKeeperProxy;
  private final Map<String, LabProcess> jobManagers;
  private final Map<String, LabProcess> taskManagers;
  private final @Nullable LeaderWatch leaderWatch;
  private int taskManagersStarted;
  private Duration startTime = Duration.ZERO;
  private volatile boolean closed;

  private ProcessFlinkCluster(
      ProcessClusterConfig config,
      @Nullable LabProcess zooKeeper,
      @Nullable TcpProxy zooKeeperProxy,
      Map<String, LabProcess> jobManagers,
      Map<String, LabProcess> taskManagers)
      throws Exception {
    super(restAddressOf(config.jobManagerPorts.get(0)), config.clientConfiguration(), List.of());
    this.config = config;
    this.zooKeeper = zooKeeper;
    this.zooKeeperProxy = zooKeeperProxy;
    this.jobManagers = jobManagers;
    this.taskManagers = taskManagers;
    this.taskManagersStarted = taskManagers.size();
    this.leaderWatch =
        config.settings.highAvailability() ? LeaderWatch.start(config.labConfiguration()) : null;
  }

  /**
   * Starts the cluster's processes in {@code directory} (ZooKeeper first with a standby JobManager,
   * then the JobManagers and TaskManagers at once) and returns when the JobManager's REST API
   * answers and every TaskManager registered. First kills what a killed lab left behind.
   */
  public static ProcessFlinkCluster start(ProcessClusterSettings settings, Path directory)
      throws Exception {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(directory, "directory");
    LabProcesses.cleanUpStale();
    long started = System.nanoTime();
    long deadline = started + settings.startTimeout().toNanos();
    ProcessClusterConfig config = ProcessClusterConfig.write(settings, directory);
    List<LabProcess> all = new ArrayList<>();
    TcpProxy zooKeeperProxy = null;
    try {
      LabProcess zooKeeper = null;
      if (settings.highAvailability()) {
        zooKeeper = startZooKeeper(config, deadline);
        all.add(zooKeeper);
        zooKeeperProxy =
            TcpProxy.start(
                "zookeeper",
                ProcessClusterConfig.LOOPBACK,
                Objects.requireNonNull(config.zooKeeperPort),
                Objects.requireNonNull(config.zooKeeperProxyPort));
      }
      Map<String, LabProcess> jobManagers = new LinkedHashMap<>();
      for (int i = 0; i < settings.jobManagers(); i++) {
        String id = "jm-" + (i + 1);
        LabProcess jm = launch(config, id, config.jobManager(id, config.jobManagerPorts.get(i)));
        jobManagers.put(id, jm);
        all.add(jm);
      }
      Map<String, LabProcess> taskManagers = new LinkedHashMap<>();
      for (int i = 0; i < settings.taskManagers(); i++) {
        String id = "tm-" + (i + 1);
        LabProcess tm = launch(config, id, config.taskManager(id));
        taskManagers.put(id, tm);
        all.add(tm);
      }
      ProcessFlinkCluster cluster =
          new ProcessFlinkCluster(config, zooKeeper, zooKeeperProxy, jobManagers, taskManagers);
      try {
        cluster.awaitRegistered(Set.copyOf(taskManagers.keySet()), deadline);
      } catch (Exception e) {
        cluster.close();
        throw e;
      }
      cluster.startTime = Duration.ofNanos(System.nanoTime() - started);
      LOG.info(
          "Process cluster {} up in {} ms: {} JobManager(s) {}, TaskManagers {} x {} slots,"
              + " REST {}, logs in {}",
          config.clusterId,
          cluster.startTime.toMillis(),
          settings.jobManagers(),
          cluster.jobManagerProcesses(),
          taskManagers.keySet(),
          settings.slotsPerTaskManager(),
          cluster.restAddress(),
          config.logs);
      return cluster;
    } catch (Exception e) {
      LabProcesses.closeAll(all);
      if (zooKeeperProxy != null) {
        zooKeeperProxy.close();
      }
      throw e;
    }
  }

  /**
   * The lab's proxy between the cluster's processes and ZooKeeper (with a standby JobManager only):
   * transparent until a network fault impairs it.
   */
  public Optional<NetworkLink> zooKeeperLink() {
    return Optional.ofNullable(zooKeeperProxy);
  }

  /**
   * What the processes logged since {@code since} about their ZooKeeper sessions and leadership (at
   * most {@code limit} lines, oldest first): the cluster's own symptoms of a cut link.
   */
  public List<String> zooKeeperSymptomsSince(Instant since, int limit) {
    return ZooKeeperSymptoms.since(config.logs, since, limit);
  }

  private static LabProcess startZooKeeper(ProcessClusterConfig config, long deadline)
      throws Exception {
    LabProcess zooKeeper = launch(config, "zookeeper", config.zooKeeper());
    ProcessWaits.awaitPort(
        zooKeeper, Objects.requireNonNull(config.zooKeeperPort), deadline, config);
    return zooKeeper;
  }

  private static LabProcess launch(ProcessClusterConfig config, String id, ProcessBuilder command)
      throws IOException {
    String role = id.equals("zookeeper") ? id : ProcessClusterConfig.role(id);
    return LabProcesses.start(role, command, config.outputOf(role), config.pids);
  }

  private static URI restAddressOf(JobManagerPorts ports) {
    return URI.create("http://" + ProcessClusterConfig.LOOPBACK + ":" + ports.rest());
  }

  /** How long the cluster took to come up: processes started, REST up, TaskManagers registered. */
  public Duration startTime() {
    return startTime;
  }

  /**
   * The cluster's id ({@code srl-…}): the HA cluster id, and on every process's command line as
   * {@code -Dsrl.cluster=<id>} (so {@code pgrep -f <id>} finds its processes).
   */
  public String id() {
    return config.clusterId;
  }

  public ProcessClusterSettings settings() {
    return config.settings;
  }

  /** The cluster's directory: {@code conf/}, {@code logs/}, {@code pids/}, checkpoints, HA. */
  public Path directory() {
    return config.directory;
  }

  /** Whether a standby JobManager takes over through ZooKeeper. */
  public boolean highAvailability() {
    return config.settings.highAvailability();
  }

  /** After how long without a heartbeat the JobManager declares a TaskManager lost. */
  public Duration heartbeatTimeout() {
    return config.settings.heartbeatTimeout();
  }

  /** The leading JobManager's REST endpoint (with HA as ZooKeeper names it now). */
  @Override
  public URI restAddress() {
    return leader().map(JobManagerProcess::restAddress).orElseGet(() -> firstLiveJobManager());
  }

  private synchronized URI firstLiveJobManager() {
    int i = 0;
    for (LabProcess jm : jobManagers.values()) {
      if (jm.alive()) {
        return restAddressOf(config.jobManagerPorts.get(i));
      }
      i++;
    }
    return restAddressOf(config.jobManagerPorts.get(0));
  }

  // ---- TaskManagers

  /** Every TaskManager process this cluster started and has not replaced, in start order. */
  public synchronized List<TaskManagerProcess> taskManagerProcesses() {
    List<TaskManagerProcess> list = new ArrayList<>();
    taskManagers.forEach(
        (id, p) -> list.add(new TaskManagerProcess(id, p.pid(), p.log(), p.alive(), p.paused())));
    return list;
  }

  /**
   * The live TaskManagers holding the job's running tasks, in start order: named by the job's
   * subtasks and still registered with the ResourceManager.
   */
  public List<String> liveTaskManagersOf(JobID job) throws Exception {
    Set<String> running = taskManagersOf(job);
    running.retainAll(registeredTaskManagers());
    List<String> ordered = new ArrayList<>();
    for (TaskManagerProcess tm : taskManagerProcesses()) {
      if (running.contains(tm.resourceId())) {
        ordered.add(tm.resourceId());
      }
    }
    return ordered;
  }

  /** Starts one more TaskManager process; returns its resource id once it registered. */
  public String startTaskManager() throws Exception {
    String id;
    synchronized (this) {
      requireOpen();
      id = "tm-" + (++taskManagersStarted);
      taskManagers.put(id, launch(config, id, config.taskManager(id)));
    }
    awaitRegistered(Set.of(id), System.nanoTime() + config.settings.startTimeout().toNanos());
    LOG.info("TaskManager {} registered", id);
    return id;
  }

  /** SIGKILLs a TaskManager process; returns its exit status (137). */
  public int kill(String resourceId) throws InterruptedException {
    return taskManager(resourceId).kill();
  }

  /** SIGSTOPs a TaskManager process: it stops answering heartbeats, as if hung. */
  public void pause(String resourceId) throws IOException {
    taskManager(resourceId).pause();
  }

  /** SIGCONTs a paused TaskManager process. */
  public void resume(String resourceId) throws IOException {
    taskManager(resourceId).resume();
  }

  private synchronized LabProcess taskManager(String resourceId) {
    Objects.requireNonNull(resourceId, "resourceId");
    LabProcess process = taskManagers.get(resourceId);
    if (process == null) {
      throw new IllegalArgumentException(
          "No TaskManager '" + resourceId + "' in this cluster; it has " + taskManagers.keySet());
    }
    return process;
  }

  // ---- JobManagers

  /** The JobManager processes, {@code jm-1} first. */
  public List<JobManagerProcess> jobManagerProcesses() {
    String leaderAddress = leaderWatch == null ? null : leaderWatch.address();
    List<JobManagerProcess> list = new ArrayList<>();
    synchronized (this) {
      int i = 0;
      boolean leaderSeen = false;
      for (Map.Entry<String, LabProcess> jm : jobManagers.entrySet()) {
        URI rest = restAddressOf(config.jobManagerPorts.get(i++));
        LabProcess process = jm.getValue();
        boolean leads =
            process.alive()
                && (leaderWatch == null ? !leaderSeen : sameEndpoint(rest, leaderAddress));
        leaderSeen |= leads;
        list.add(new JobManagerProcess(jm.getKey(), process.pid(), rest, process.alive(), leads));
      }
    }
    return list;
  }

  /** The JobManager that leads now; empty while none does (e.g. during a takeover). */
  public Optional<JobManagerProcess> leader() {
    return jobManagerProcesses().stream().filter(JobManagerProcess::leader).findFirst();
  }

  private static boolean sameEndpoint(URI rest, @Nullable String leaderAddress) {
    if (leaderAddress == null || leaderAddress.isEmpty()) {
      return false;
    }
    URI leader = URI.create(leaderAddress);
    return leader.getPort() == rest.getPort() && Objects.equals(leader.getHost(), rest.getHost());
  }

  /** SIGKILLs a JobManager process ({@code jm-1}, …); returns its exit status (137). */
  public int killJobManager(String id) throws InterruptedException {
    return jobManager(id).kill();
  }

  /** SIGKILLs a JobManager process; returns its exit status (137). */
  public int kill(JobManagerProcess jobManager) throws InterruptedException {
    return killJobManager(jobManager.id());
  }

  /**
   * Starts a JobManager that was killed again with the same configuration and ports; with HA it
   * joins as a standby. Returns once its REST port accepts connections.
   */
  public JobManagerProcess restartJobManager(String id) throws Exception {
    LabProcess process;
    synchronized (this) {
      requireOpen();
      if (jobManager(id).alive()) {
        throw new IllegalStateException("JobManager " + id + " still runs: kill it first");
      }
      JobManagerPorts ports = portsOf(id);
      process = launch(config, id, config.jobManager(id, ports));
      jobManagers.put(id, process);
    }
    ProcessWaits.awaitPort(
        process,
        portsOf(id).rest(),
        System.nanoTime() + config.settings.startTimeout().toNanos(),
        config);
    LOG.info("JobManager {} restarted as pid {}", id, process.pid());
    return jobManagerProcesses().stream().filter(j -> j.id().equals(id)).findFirst().orElseThrow();
  }

  private synchronized JobManagerPorts portsOf(String id) {
    return config.jobManagerPorts.get(new ArrayList<>(jobManagers.keySet()).indexOf(id));
  }

  private synchronized LabProcess jobManager(String id) {
    Objects.requireNonNull(id, "id");
    LabProcess process = jobManagers.get(id);
    if (process == null) {
      throw new IllegalArgumentException(
          "No JobManager '" + id + "' in this cluster; it has " + jobManagers.keySet());
    }
    return process;
  }

  // ---- health

  /**
   * Makes the cluster as started again, for the next scenario: resumes paused TaskManagers,
   * restarts dead JobManagers (and ZooKeeper), replaces dead TaskManagers, then waits until exactly
   * the live TaskManagers are registered, no job runs and every slot is free.
   */
  public void ensureHealthy(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> deadJobManagers = new ArrayList<>();
    int missing;
    synchronized (this) {
      requireOpen();
      if (zooKeeper != null && !zooKeeper.alive()) {
        LOG.warn("ZooKeeper of cluster {} is gone; starting it again", config.clusterId);
        zooKeeper = startZooKeeper(config, deadline);
      }
      for (Map.Entry<String, LabProcess> jm : jobManagers.entrySet()) {
        if (!jm.getValue().alive()) {
          deadJobManagers.add(jm.getKey());
        }
      }
      for (LabProcess tm : taskManagers.values()) {
        if (tm.paused()) {
          tm.resume();
        }
      }
      taskManagers.values().removeIf(tm -> !tm.alive());
      missing = config.settings.taskManagers() - taskManagers.size();
    }
    for (String id : deadJobManagers) {
      restartJobManager(id);
    }
    for (int i = 0; i < missing; i++) {
      startTaskManager();
    }
    FlinkCluster.awaitHealthy(
        "process cluster " + config.clusterId,
        timeout,
        deadline,
        POLL,
        () -> {
          Set<String> alive;
          synchronized (this) {
            alive = Set.copyOf(taskManagers.keySet());
          }
          return unhealthy(alive);
        });
  }

  /** Waits until every TaskManager in {@code ids} is registered; fails fast if one exits. */
  private void awaitRegistered(Set<String> ids, long deadline) throws Exception {
    String last = "nothing";
    while (System.nanoTime() < deadline) {
      for (String id : ids) {
        ProcessWaits.failIfExited(taskManager(id), config);
      }
      for (LabProcess jm : List.copyOf(jobManagers.values())) {
        ProcessWaits.failIfExited(jm, config);
      }
      try {
        Set<String> registered = registeredTaskManagers();
        if (registered.containsAll(ids)) {
          return;
        }
        last = "registered " + registered;
      } catch (Exception e) {
        last = e.toString();
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new TimeoutException(
        "TaskManagers "
            + ids
            + " did not register within "
            + config.settings.startTimeout().toSeconds()
            + " s; last seen: "
            + last
            + "; logs in "
            + config.logs);
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("Process cluster " + config.clusterId + " is closed");
    }
  }

  /** Whether {@link #close()} was called. */
  public boolean closed() {
    return closed;
  }

  /** Stops every process of the cluster: TaskManagers, JobManagers, ZooKeeper. */
  @Override
  public void close() {
    List<LabProcess> processes;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      processes = new ArrayList<>(taskManagers.values());
      processes.addAll(jobManagers.values());
    }
    try {
      super.close();
    } finally {
      if (leaderWatch != null) {
        leaderWatch.close();
      }
      LabProcesses.closeAll(processes);
      if (zooKeeper != null) {
        zooKeeper.close();
      }
      if (zooKeeperProxy != null) {
        zooKeeperProxy.close();
      }
      LOG.info("Process cluster {} stopped", config.clusterId);
    }
  }
}
