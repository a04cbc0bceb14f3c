package io.reliabilitylab.pipeline.direct.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RpcOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Flink MiniCluster in this JVM, with its REST endpoint on a free loopback port; jobs
 * are submitted and watched through that endpoint exactly as on a session cluster. Closing it stops
 * the cluster.
 *
 * <pre>{@code
 * try (MiniClusterRunner cluster = MiniClusterRunner.start(MiniClusterSettings.defaults())) {
 *   JobID job = cluster.submit(DirectJob.create(config));
 *   cluster.awaitRunning(job, Duration.ofSeconds(30));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class MiniClusterRunner extends RestFlinkCluster {

  private static final Logger LOG = LoggerFactory.getLogger(MiniClusterRunner.class);

  private final MiniCluster miniCluster;

  private MiniClusterRunner(MiniCluster miniCluster, URI restAddress) throws Exception {
    super(restAddress, new Configuration(), List.of());
    this.miniCluster = miniCluster;
  }

  /** Starts a MiniCluster; fails if it does not come up. */
  public static MiniClusterRunner start(MiniClusterSettings settings) throws Exception {
    Objects.requireNonNull(settings, "settings");
    Configuration configuration = configuration(settings);
    MiniClusterConfiguration clusterConfiguration =
        new MiniClusterConfiguration.Builder()
            .setConfiguration(configuration)
            .setNumTaskManagers(settings.taskManagers())
            .setNumSlotsPerTaskManager(settings.slotsPerTaskManager())
            .build();
    long started = System.nanoTime();
    MiniCluster miniCluster = new MiniCluster(clusterConfiguration);
    try {
      miniCluster.start();
      URI restAddress = miniCluster.getRestAddress().get(30, TimeUnit.SECONDS);
      LOG.info(
          "MiniCluster with {} x {} slots up in {} ms, REST at {}",
          settings.taskManagers(),
          settings.slotsPerTaskManager(),
          Duration.ofNanos(System.nanoTime() - started).toMillis(),
          restAddress);
      return new MiniClusterRunner(miniCluster, restAddress);
    } catch (Exception e) {
      miniCluster.close();
      throw e;
    }
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

  /** The MiniCluster itself: TaskManager control for faults. */
  public MiniCluster miniCluster() {
    return miniCluster;
  }

  @Override
  public void close() {
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
