package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.faults.CoordinatorFailureInjector;
import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.pipeline.flink.cluster.ClusterLease;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.ProcessClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RestFlinkCluster;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the run record says of the cluster a Flink pipeline runs on: its kind and size, the claim
 * boundaries of the faults that act on it, and the timeouts that decide how fast a loss is noticed.
 */
final class ClusterDescription {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDescription.class);

  /** What a lost TaskManager is on the lab's cluster of processes. */
  static final String PROCESS_TASK_FAILURE_CLAIM_BOUNDARY =
      "a TaskManager JVM of the lab's cluster of processes is killed with SIGKILL";

  // The cluster settings that decide how fast a lost TaskManager or JobManager is noticed.
  private static final Map<String, String> CLUSTER_TIMEOUT_DEFAULTS =
      orderedMap(
          "heartbeat.interval", "10 s",
          "heartbeat.timeout", "50 s",
          "heartbeat.rpc-failure-threshold", "2",
          "pekko.ask.timeout", "10 s",
          "high-availability.zookeeper.client.session-timeout", "60 s");

  private ClusterDescription() {}

  /** The cluster of processes under {@code cluster}, a shared one's lease unwrapped. */
  static @Nullable ProcessFlinkCluster processesOf(FlinkCluster cluster) {
    if (cluster instanceof ClusterLease<?> lease) {
      return lease.cluster() instanceof ProcessFlinkCluster processes ? processes : null;
    }
    return cluster instanceof ProcessFlinkCluster processes ? processes : null;
  }

  /** The cluster under {@code cluster} that answers Flink's REST API, a lease unwrapped. */
  static @Nullable RestFlinkCluster restOf(FlinkCluster cluster) {
    if (cluster instanceof ClusterLease<?> lease) {
      return lease.cluster();
    }
    return cluster instanceof RestFlinkCluster rest ? rest : null;
  }

  /** The embedded MiniCluster under {@code cluster}, a shared one's lease unwrapped. */
  static @Nullable MiniClusterRunner miniClusterOf(FlinkCluster cluster) {
    if (cluster instanceof ClusterLease<?> lease) {
      return lease.cluster() instanceof MiniClusterRunner mini ? mini : null;
    }
    return cluster instanceof MiniClusterRunner mini ? mini : null;
  }

  /** The record's settings for {@code cluster}. */
  static Map<String, String> of(FlinkCluster cluster) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("flink.cluster", cluster.restAddress().toString());
    ProcessFlinkCluster processes = processesOf(cluster);
    MiniClusterRunner mini = miniClusterOf(cluster);
    if (mini != null) {
      MiniClusterSettings embedded = mini.settings();
      settings.put(
          "flink.cluster.kind",
          "embedded MiniCluster in the lab's JVM, "
              + embedded.taskManagers()
              + " TaskManager(s) x "
              + embedded.slotsPerTaskManager()
              + " slots");
      settings.put(
          TaskFailureInjector.CLAIM_BOUNDARY_KEY, TaskFailureInjector.EMBEDDED_CLAIM_BOUNDARY);
      settings.put(
          CoordinatorFailureInjector.CLAIM_BOUNDARY_KEY, FlinkPipeline.CLUSTER_LOSS_CLAIM_BOUNDARY);
    } else if (processes != null) {
      settings.put("flink.cluster.kind", describe(processes));
      settings.put("flink.cluster.directory", processes.directory().toString());
      settings.put(TaskFailureInjector.CLAIM_BOUNDARY_KEY, PROCESS_TASK_FAILURE_CLAIM_BOUNDARY);
      settings.put(
          CoordinatorFailureInjector.CLAIM_BOUNDARY_KEY,
          FlinkPipeline.PROCESS_CLUSTER_LOSS_CLAIM_BOUNDARY);
    } else {
      settings.put("flink.cluster.kind", "session cluster by REST address");
    }
    settings.putAll(timeouts(processes != null ? processes : cluster));
    return settings;
  }

  /** SIGKILLs every TaskManager and JobManager at once, then lets the rest (ZooKeeper) go. */
  static void crash(ProcessFlinkCluster processes) {
    try {
      for (var taskManager : processes.taskManagerProcesses()) {
        if (taskManager.alive()) {
          processes.kill(taskManager.resourceId());
        }
      }
      for (var jobManager : processes.jobManagerProcesses()) {
        if (jobManager.alive()) {
          processes.killJobManager(jobManager.id());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      processes.close();
    }
  }

  private static String describe(ProcessFlinkCluster processes) {
    ProcessClusterSettings settings = processes.settings();
    return "processes ("
        + settings.optionText()
        + "): "
        + settings.jobManagers()
        + " JobManager(s) "
        + processes.jobManagerProcesses().stream().map(jm -> jm.id() + " pid " + jm.pid()).toList()
        + ", "
        + settings.taskManagers()
        + " TaskManager(s) x "
        + settings.slotsPerTaskManager()
        + " slots "
        + processes.taskManagerProcesses().stream()
            .map(tm -> tm.resourceId() + " pid " + tm.pid())
            .toList()
        + (processes.highAvailability() ? ", ZooKeeper HA" : "")
        + ", started in "
        + processes.startTime().toMillis()
        + " ms";
  }

  /**
   * The heartbeat and RPC timeouts the cluster runs with, as its JobManager reports them; Flink's
   * defaults where it reports none.
   */
  private static Map<String, String> timeouts(FlinkCluster cluster) {
    Map<String, String> reported = Map.of();
    String source = "";
    RestFlinkCluster rest = restOf(cluster);
    if (rest != null) {
      try {
        reported = rest.clusterConfiguration();
      } catch (Exception e) {
        LOG.debug("The cluster configuration of {} is unavailable", cluster.restAddress(), e);
        source = " (cluster configuration unavailable: " + e.getClass().getSimpleName() + ")";
      }
    }
    Map<String, String> timeouts = new LinkedHashMap<>();
    for (Map.Entry<String, String> setting : CLUSTER_TIMEOUT_DEFAULTS.entrySet()) {
      String value = reported.get(setting.getKey());
      timeouts.put(
          setting.getKey(),
          value != null ? value : "Flink default (" + setting.getValue() + ")" + source);
    }
    return timeouts;
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
