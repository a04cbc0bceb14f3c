package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedded MiniClusters shared by the scenarios of one JVM, so that a suite (or a test class)
 * starts its cluster once. A cluster serves one lease at a time: a lease's {@code close()} hands it
 * back, and the next {@link #acquire} with equal settings makes it as good as new (no job left,
 * every TaskManager it was started with, every slot free) and reuses it; two pipelines running at
 * once get two clusters. {@link #lose} stops one for good (the cluster-loss fault); every shared
 * cluster stops at JVM exit or by {@link #closeAll()}.
 *
 * <pre>{@code
 * try (ClusterLease<MiniClusterRunner> lease = SharedMiniClusters.acquire(settings)) {
 *   JobID id = lease.submit(job);
 *   lease.cluster().terminateTaskManager(lease.cluster().liveTaskManagersOf(id).get(0));
 * } // the next acquire(settings) replaces the terminated TaskManager and reuses the cluster
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class SharedMiniClusters {

  private static final Logger LOG = LoggerFactory.getLogger(SharedMiniClusters.class);
  // Long enough for a cancelled job's tasks to finish and a replacement TaskManager to register.
  private static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(30);
  private static final Map<MiniClusterSettings, Deque<MiniClusterRunner>> IDLE = new HashMap<>();
  private static final Set<MiniClusterRunner> ALL = new LinkedHashSet<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(SharedMiniClusters::closeAll, "srl-shared-miniclusters-stop"));
  }

  private SharedMiniClusters() {}

  /**
   * An idle cluster started with equal settings in this JVM, made healthy, or a new one; a cluster
   * that cannot be made healthy is stopped and replaced.
   */
  public static ClusterLease<MiniClusterRunner> acquire(MiniClusterSettings settings)
      throws Exception {
    Objects.requireNonNull(settings, "settings");
    MiniClusterRunner idle;
    while ((idle = takeIdle(settings)) != null) {
      try {
        long started = System.nanoTime();
        idle.ensureHealthy(HEALTHY_TIMEOUT);
        LOG.info(
            "Reusing MiniCluster {} (made ready in {} ms)",
            idle.restAddress(),
            Duration.ofNanos(System.nanoTime() - started).toMillis());
        return lease(settings, idle);
      } catch (Exception e) {
        LOG.warn(
            "The shared MiniCluster {} cannot be made healthy ({}); stopping it",
            idle.restAddress(),
            e.toString());
        lose(idle);
      }
    }
    MiniClusterRunner started = MiniClusterRunner.start(settings);
    synchronized (SharedMiniClusters.class) {
      ALL.add(started);
    }
    return lease(settings, started);
  }

  /**
   * Stops a shared cluster for good, as a lost cluster is: its jobs are suspended, not cancelled;
   * the next {@link #acquire} with its settings starts a new one.
   */
  public static void lose(MiniClusterRunner cluster) {
    synchronized (SharedMiniClusters.class) {
      ALL.remove(cluster);
      IDLE.values().forEach(idle -> idle.remove(cluster));
    }
    cluster.close();
  }

  /** Stops every shared MiniCluster. */
  public static void closeAll() {
    List<MiniClusterRunner> all;
    synchronized (SharedMiniClusters.class) {
      all = new ArrayList<>(ALL);
      ALL.clear();
      IDLE.clear();
    }
    all.forEach(MiniClusterRunner::close);
  }

  private static synchronized MiniClusterRunner takeIdle(MiniClusterSettings settings) {
    Deque<MiniClusterRunner> idle = IDLE.getOrDefault(settings, new ArrayDeque<>());
    MiniClusterRunner cluster;
    while ((cluster = idle.poll()) != null) {
      if (!cluster.closed()) {
        return cluster;
      }
      ALL.remove(cluster);
    }
    return null;
  }

  private static ClusterLease<MiniClusterRunner> lease(
      MiniClusterSettings settings, MiniClusterRunner cluster) {
    return new ClusterLease<>(cluster, () -> handBack(settings, cluster));
  }

  private static synchronized void handBack(
      MiniClusterSettings settings, MiniClusterRunner cluster) {
    if (!cluster.closed() && ALL.contains(cluster)) {
      IDLE.computeIfAbsent(settings, any -> new ArrayDeque<>()).push(cluster);
    }
  }
}
