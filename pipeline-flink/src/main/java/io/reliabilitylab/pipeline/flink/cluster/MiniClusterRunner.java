package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RpcOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Flink MiniCluster in this JVM, with its REST endpoint on a free loopback port; jobs
 * are submitted and watched through that endpoint exactly as on a session cluster. Its TaskManagers
 * can be terminated and replaced one by one, by id. Closing it stops the cluster.
 *
 * <pre>{@code
 * try (MiniClusterRunner cluster = MiniClusterRunner.start(MiniClusterSettings.defaults())) {
 *   JobID id = cluster.submit(job); // any FlinkJob: DirectJob, BrokerJob, yours
 *   cluster.awaitRunning(id, Duration.ofSeconds(30));
 *   cluster.terminateTaskManager(cluster.taskManagersOf(id).iterator().next());
 *   cluster.startTaskManager();
 * }
 * }</pre>
 *
 * <p>TaskManager ids are the resource ids the REST API shows. Flink's MiniCluster addresses its
 * TaskManagers only by the index in which they were started ({@code terminateTaskManager(int)},
 * {@code startTaskManager()}), so this runner starts every TaskManager itself, one at a time, and
 * records which id registered with the ResourceManager after each start: the id at position i is
 * the TaskManager at index i. The MiniCluster is therefore configured with no TaskManagers of its
 * own; that also makes its TaskManagers talk through the network stack, as separate TaskManagers
 * do, rather than through the single-TaskManager local shortcut.
 */
@API(status = EXPERIMENTAL)
public final class MiniClusterRunner extends RestFlinkCluster {

  private static final Logger LOG = LoggerFactory.getLogger(MiniClusterRunner.class);
  private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(20);

  private final MiniCluster miniCluster;
  private final MiniClusterSettings settings;
  // The resource id of the TaskManager at each MiniCluster index, in start order.
  private final List<String> taskManagerIds = new ArrayList<>();
  private final Set<String> terminated = new HashSet<>();
  private volatile boolean closed;

  private MiniClusterRunner(MiniCluster miniCluster, URI restAddress, MiniClusterSettings settings)
      throws Exception {
    super(restAddress, clientConfiguration(), List.of());
    this.miniCluster = miniCluster;
    this.settings = settings;
  }

  /** Starts a MiniCluster and its TaskManagers; fails if it does not come up. */
  public static MiniClusterRunner start(MiniClusterSettings settings) throws Exception {
    Objects.requireNonNull(settings, "settings");
    Configuration configuration = configuration(settings);
    MiniClusterConfiguration clusterConfiguration =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(configuration)
            // none of its own: this runner starts each TaskManager, to know its id
            .setNumTaskManagers(0)
            .setNumSlotsPerTaskManager(settings.slotsPerTaskManager())
            .build();
    long started = System.nanoTime();
    MiniCluster miniCluster = new MiniCluster(clusterConfiguration);
    MiniClusterRunner runner = null;
    try {
      miniCluster.start();
      URI restAddress = miniCluster.getRestAddress().get(30, TimeUnit.SECONDS);
      runner = new MiniClusterRunner(miniCluster, restAddress, settings);
      long clusterUp = System.nanoTime();
      for (int i = 0; i < settings.taskManagers(); i++) {
        runner.startTaskManager();
      }
      LOG.info(
          "MiniCluster with {} x {} slots up in {} ms ({} ms for its TaskManagers), REST at {},"
              + " TaskManagers {}",
          settings.taskManagers(),
          settings.slotsPerTaskManager(),
          Duration.ofNanos(System.nanoTime() - started).toMillis(),
          Duration.ofNanos(System.nanoTime() - clusterUp).toMillis(),
          restAddress,
          runner.taskManagerIds);
      return runner;
    } catch (Exception e) {
      if (runner != null) {
        runner.close();
      } else {
        miniCluster.close();
      }
      throw e;
    }
  }

  /**
   * The REST client's settings: a request the cluster answers with "leader election ongoing" (the
   * first ones after start) is retried after 50 ms instead of Flink's 3 s.
   */
  private static Configuration clientConfiguration() {
    Configuration configuration = new Configuration();
    configuration.set(RestOptions.RETRY_DELAY, Duration.ofMillis(50));
    return configuration;
  }

  /** The Flink configuration a MiniCluster is started with. */
  static Configuration configuration(MiniClusterSettings settings) {
    Configuration configuration = new Configuration();
    configuration.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    configuration.set(RestOptions.ADDRESS, "127.0.0.1");
    // 0: a free port, so that parallel runs never collide.
    configuration.set(RestOptions.PORT, 0);
    configuration.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, settings.heartbeatInterval());
    configuration.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, settings.heartbeatTimeout());
    configuration.set(RpcOptions.ASK_TIMEOUT_DURATION, settings.askTimeout());
    // The REST metrics (numRestarts) are refreshed this often; Flink's default is 10 s.
    configuration.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(500));
    // The REST job details and checkpoint statistics are cached this long; Flink's default is 3 s.
    configuration.set(WebOptions.REFRESH_INTERVAL, Duration.ofMillis(200));
    configuration.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(200));
    configuration.set(TaskManagerOptions.NUM_TASK_SLOTS, settings.slotsPerTaskManager());
    configuration.addAll(Configuration.fromMap(settings.extra()));
    return configuration;
  }

  /** The settings this cluster was started with; a replacement cluster uses the same. */
  public MiniClusterSettings settings() {
    return settings;
  }

  /** Ids of the TaskManagers this runner started and has not terminated, in start order. */
  public synchronized List<String> taskManagerIds() {
    return taskManagerIds.stream().filter(id -> !terminated.contains(id)).toList();
  }

  /**
   * The live TaskManagers holding the job's running tasks, in start order: named by the job's
   * subtasks and still registered with the ResourceManager.
   */
  public List<String> liveTaskManagersOf(JobID job) throws Exception {
    Set<String> running = taskManagersOf(job);
    running.retainAll(registeredTaskManagers());
    List<String> ordered = new ArrayList<>();
    for (String id : taskManagerIds()) {
      if (running.contains(id)) {
        ordered.add(id);
      }
    }
    return ordered;
  }

  /**
   * The registered TaskManagers; while a fresh cluster's REST endpoint cannot reach its
   * ResourceManager yet ("Cannot connect to ResourceManager right now"), asks again until the
   * deadline.
   */
  private Set<String> registeredOnceTheResourceManagerAnswers(long deadlineNanos) throws Exception {
    while (true) {
      try {
        return registeredTaskManagers();
      } catch (Exception e) {
        if (!resourceManagerNotReachableYet(e) || System.nanoTime() > deadlineNanos) {
          throw e;
        }
        Thread.sleep(POLL.toMillis());
      }
    }
  }

  private static boolean resourceManagerNotReachableYet(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && message.contains("Cannot connect to ResourceManager")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  /**
   * Starts one more TaskManager and returns its id once it registered with the ResourceManager, so
   * that its slots can be offered to jobs.
   */
  public synchronized String startTaskManager() throws Exception {
    long deadline = System.nanoTime() + REGISTRATION_TIMEOUT.toNanos();
    Set<String> before = registeredOnceTheResourceManagerAnswers(deadline);
    before.addAll(taskManagerIds);
    int index = taskManagerIds.size();
    miniCluster.startTaskManager();
    while (true) {
      Set<String> now = registeredOnceTheResourceManagerAnswers(deadline);
      now.removeAll(before);
      if (now.size() == 1) {
        String id = now.iterator().next();
        taskManagerIds.add(id);
        LOG.info("TaskManager {} (MiniCluster index {}) registered", id, index);
        return id;
      }
      if (now.size() > 1) {
        throw new IllegalStateException(
            "More than one new TaskManager registered after starting one: "
                + now
                + "; was a TaskManager started outside this runner?");
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "The TaskManager started at MiniCluster index "
                + index
                + " did not register with the ResourceManager within "
                + REGISTRATION_TIMEOUT.toSeconds()
                + " s");
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Terminates one TaskManager inside this JVM, as {@code MiniCluster#terminateTaskManager} does:
   * its tasks fail, its connections to the JobManager and ResourceManager close; the process and
   * the JVM live on. Returns when it has stopped.
   */
  public synchronized void terminateTaskManager(String taskManagerId) throws Exception {
    Objects.requireNonNull(taskManagerId, "taskManagerId");
    int index = taskManagerIds.indexOf(taskManagerId);
    if (index < 0 || terminated.contains(taskManagerId)) {
      throw new IllegalArgumentException(
          "No live TaskManager '"
              + taskManagerId
              + "' in this MiniCluster; live ones: "
              + taskManagerIds());
    }
    terminated.add(taskManagerId);
    miniCluster
        .terminateTaskManager(index)
        .get(settings.askTimeout().toMillis(), TimeUnit.MILLISECONDS);
    LOG.info("TaskManager {} (MiniCluster index {}) terminated", taskManagerId, index);
  }

  /**
   * Makes a cluster that ran earlier jobs as good as new for the next one: a job still running is
   * cancelled, terminated TaskManagers are replaced until it has as many as it was started with,
   * and it returns once every slot is free.
   *
   * @throws TimeoutException when the cluster is not healthy within {@code timeout}
   */
  public void ensureHealthy(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (JobStatusMessage job : client().listJobs().get(30, TimeUnit.SECONDS)) {
      // A job the last lease cancelled on its way out is CANCELLING: it only needs to finish.
      JobStatus state = job.getJobState();
      if (!state.isGloballyTerminalState() && state != JobStatus.CANCELLING) {
        LOG.info("Cancelling job {} ({}) left on the shared MiniCluster", job.getJobId(), state);
        cancel(job.getJobId());
      }
    }
    while (taskManagerIds().size() < settings.taskManagers()) {
      startTaskManager();
    }
    FlinkCluster.awaitHealthy(
        "the MiniCluster at " + restAddress(),
        timeout,
        deadline,
        POLL,
        () -> unhealthy(Set.copyOf(taskManagerIds())));
  }

  /** Whether {@link #close()} was called. */
  public boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    try {
      super.close();
    } finally {
      try {
        miniCluster.close();
      } catch (Exception e) {
        LOG.warn("Stopping the MiniCluster failed", e);
      }
    }
  }
}
