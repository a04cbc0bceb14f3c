package io.reliabilitylab.pipeline.flink;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.catalog.SinkCatalogOptions;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.ProcessClusterSettings;
import io.reliabilitylab.pipeline.flink.cluster.RestFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.SharedMiniClusters;
import io.reliabilitylab.pipeline.flink.cluster.SharedProcessClusters;
import io.reliabilitylab.spi.pipeline.JobManagerControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import io.reliabilitylab.spi.pipeline.ZooKeeperNetworkLink;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The Flink cluster a pipeline's options ask for: an embedded MiniCluster (the default, shared by
 * the scenarios of a suite), a cluster of JobManager and TaskManager processes the lab starts
 * ({@value LabOptions#FLINK_CLUSTER} {@code processes…}, shared by the scenarios of a suite), or a
 * session cluster by REST address ({@value LabOptions#FLINK_REST_ADDRESS}); and what a Flink
 * pipeline can offer on each.
 */
@API(status = EXPERIMENTAL)
public final class FlinkClusters {

  /** The {@value LabOptions#FLINK_CLUSTER} value of the default, embedded cluster. */
  public static final String EMBEDDED = "embedded";

  private FlinkClusters() {}

  /**
   * The cluster of processes the options ask for, or empty for an embedded or session cluster.
   *
   * @throws IllegalArgumentException for an unreadable {@value LabOptions#FLINK_CLUSTER} or one
   *     combined with a session cluster's REST address
   */
  public static Optional<ProcessClusterSettings> processes(Map<String, String> options) {
    String wanted = options.getOrDefault(LabOptions.FLINK_CLUSTER, EMBEDDED).strip();
    if (wanted.equals(EMBEDDED)) {
      return Optional.empty();
    }
    if (options.containsKey(LabOptions.FLINK_REST_ADDRESS)) {
      throw new IllegalArgumentException(
          "Choose one Flink cluster: --flink-cluster "
              + wanted
              + " starts one, --flink-rest-address "
              + options.get(LabOptions.FLINK_REST_ADDRESS)
              + " names a running one");
    }
    return Optional.of(ProcessClusterSettings.parse(wanted));
  }

  /** Starts or reuses the cluster {@code config}'s options ask for. */
  public static FlinkCluster start(PipelineConfig config) throws Exception {
    Map<String, String> options = config.options();
    Optional<ProcessClusterSettings> processes = processes(options);
    if (processes.isPresent()) {
      return SharedProcessClusters.acquire(processes.get(), clusterDirectory(config));
    }
    Optional<String> rest = config.option(LabOptions.FLINK_REST_ADDRESS);
    if (rest.isPresent()) {
      return RestFlinkCluster.connect(URI.create(rest.get()));
    }
    return SharedMiniClusters.acquire(MiniClusterSettings.defaults());
  }

  /** Where a cluster of processes lives: the option, else beside the run's own directory. */
  static Path clusterDirectory(PipelineConfig config) {
    return config
        .option(LabOptions.FLINK_CLUSTER_DIRECTORY)
        .map(Path::of)
        .orElseGet(() -> config.workDirectory().resolve("flink-cluster"))
        .toAbsolutePath()
        .normalize();
  }

  /**
   * What a Flink pipeline can offer on the cluster {@code options} ask for, given what it offers on
   * an embedded MiniCluster: on processes, TaskManagers that are processes (and JobManagers with a
   * standby) instead of in-JVM ones, and no table maintenance on a Hadoop catalog (its commit lock
   * lives in one JVM); on a session cluster, no TaskManager control and the same rule for
   * maintenance; on the embedded REST catalog, faults at its service.
   */
  public static Set<Class<? extends PipelineCapability>> capabilities(
      Set<Class<? extends PipelineCapability>> embedded, Map<String, String> options) {
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(embedded);
    String catalog =
        options.getOrDefault(LabOptions.SINK_CATALOG, SinkCatalogOptions.HADOOP).strip();
    // a REST catalog resolves concurrent commits itself: compaction from the lab's JVM is safe
    // whichever JVMs the job commits from
    boolean sharedCommits = !catalog.equals(SinkCatalogOptions.HADOOP);
    if (catalog.equals(SinkCatalogOptions.EMBEDDED_REST)) {
      offered.add(SinkCatalogControl.class);
    }
    Optional<ProcessClusterSettings> processes = processes(options);
    if (processes.isPresent()) {
      if (!sharedCommits) {
        offered.remove(TableMaintenance.class);
      }
      if (offered.contains(TaskManagerControl.class)) {
        offered.add(TaskManagerProcessControl.class);
      }
      if (processes.get().highAvailability()) {
        offered.add(JobManagerControl.class);
        offered.add(ZooKeeperNetworkLink.class);
      }
    } else if (options.containsKey(LabOptions.FLINK_REST_ADDRESS)) {
      offered.remove(TaskManagerControl.class);
      if (!sharedCommits) {
        offered.remove(TableMaintenance.class);
      }
    }
    return Set.copyOf(offered);
  }
}
