package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Process clusters shared by the scenarios of one JVM, so that a suite starts its cluster once: a
 * cluster started with equal settings is made healthy again and reused. A lease's {@code close()}
 * leaves the cluster running; every shared cluster stops at JVM exit or by {@link #closeAll()}.
 *
 * <pre>{@code
 * try (ClusterLease<ProcessFlinkCluster> lease = SharedProcessClusters.acquire(settings, runDirectory)) {
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
  public static synchronized ClusterLease<ProcessFlinkCluster> acquire(
      ProcessClusterSettings settings, Path directory) throws Exception {
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
        return new ClusterLease<>(existing, () -> {});
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
    return new ClusterLease<>(started, () -> {});
  }

  /** Stops every shared cluster. */
  public static synchronized void closeAll() {
    for (ProcessFlinkCluster cluster : CLUSTERS.values()) {
      cluster.close();
    }
    CLUSTERS.clear();
  }
}
