package io.reliabilitylab.pipeline.flink.job;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.flink.catalog.EmbeddedSinkCatalog;
import io.reliabilitylab.pipeline.flink.catalog.SinkCatalogOptions;
import io.reliabilitylab.pipeline.flink.faults.FaultChannel;
import io.reliabilitylab.pipeline.flink.faults.StartGates;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/** Reads the job settings every reference pipeline takes from the lab's options. */
@API(status = INTERNAL)
public final class JobOptions {

  /** The options {@link #settings} requires. */
  public static final Set<String> REQUIRED =
      Set.of(LabOptions.WAREHOUSE_PATH, LabOptions.CHECKPOINTS_PATH);

  /**
   * The control directory of the {@link io.reliabilitylab.pipeline.flink.faults.FaultChannel} that
   * arms the job's fault points in every JVM of a cluster; absent: the in-JVM switchboard only.
   */
  public static final String FAULT_CHANNEL_DIRECTORY = "fault.channel-directory";

  /** The options {@link #settings} reads when present. */
  public static final Set<String> OPTIONAL =
      Set.of(
          FAULT_CHANNEL_DIRECTORY,
          LabOptions.CHECKPOINT_INTERVAL_MS,
          LabOptions.CHECKPOINT_TIMEOUT_MS,
          LabOptions.PARALLELISM,
          LabOptions.FLINK_REST_ADDRESS,
          LabOptions.FLINK_CLUSTER,
          LabOptions.FLINK_CLUSTER_DIRECTORY,
          JobVariant.OPTION,
          LabOptions.NETWORK_PROXY,
          LabOptions.SINK_CATALOG,
          LabOptions.SINK_CATALOG_URI,
          LabOptions.SINK_CATALOG_PROPERTY_PREFIX + "{name}",
          LabOptions.SINK_CATALOG_DIRECTORY);

  private JobOptions() {}

  /** The settings the options give, named {@code jobName}; defaults for what they leave out. */
  public static OrdersJobSettings settings(PipelineConfig config, String jobName) {
    SinkCatalog catalog = SinkCatalogOptions.catalog(config);
    String namespace = SinkCatalogOptions.namespace(config, catalog);
    OrdersJobSettings.Builder builder =
        OrdersJobSettings.builder()
            .jobName(jobName)
            .catalog(catalog)
            .namespace(namespace)
            .checkpointDirectory(Path.of(config.option(LabOptions.CHECKPOINTS_PATH).orElseThrow()))
            // the lab opens it where the fault points run: this JVM or the fault channel below
            .startGate(StartGates.newGate());
    if (embeddedCluster(config)) {
      // with the lab's object store, the embedded cluster's checkpoints go there too (a cluster
      // of processes keeps them on the shared disk: its fault channel links need it)
      EmbeddedSinkCatalog.serving(catalog)
          .ifPresent(store -> builder.checkpointLocation(store.checkpointLocation(namespace)));
    }
    config
        .option(LabOptions.CHECKPOINT_INTERVAL_MS)
        .ifPresent(ms -> builder.checkpointInterval(Duration.ofMillis(Long.parseLong(ms))));
    config
        .option(LabOptions.CHECKPOINT_TIMEOUT_MS)
        .ifPresent(ms -> builder.checkpointTimeout(Duration.ofMillis(Long.parseLong(ms))));
    config.option(LabOptions.PARALLELISM).ifPresent(p -> builder.parallelism(Integer.parseInt(p)));
    config.option(JobVariant.OPTION).ifPresent(v -> builder.variant(JobVariant.parse(v)));
    config
        .option(OrdersJobSettings.TRANSACTIONS_OPTION)
        .ifPresent(value -> builder.alignTransactions(alignTransactions(value)));
    Optional<String> channel =
        config.option(FAULT_CHANNEL_DIRECTORY).filter(directory -> !directory.isBlank());
    if (channel.isPresent()) {
      builder.faultChannel(Path.of(channel.get().strip()));
    } else if (!config.option(LabOptions.FLINK_CLUSTER, "embedded").strip().equals("embedded")) {
      // a cluster of processes the lab starts shares its disk: one channel per scenario
      Path checkpoints = Path.of(config.option(LabOptions.CHECKPOINTS_PATH).orElseThrow());
      Path scenarioChannel =
          checkpoints.toAbsolutePath().normalize().resolveSibling("fault-channel");
      // there before the job is built: the sink's catalog loader, opened in the lab's JVM too,
      // watches it from then on (and warned it missing)
      FaultChannel.open(scenarioChannel);
      builder.faultChannel(scenarioChannel);
    }
    return builder.build();
  }

  /**
   * Whether the job runs on the lab's embedded MiniCluster (no cluster of processes, no session).
   */
  private static boolean embeddedCluster(PipelineConfig config) {
    return config.option(LabOptions.FLINK_CLUSTER, "embedded").strip().equals("embedded")
        && config.option(LabOptions.FLINK_REST_ADDRESS).isEmpty();
  }

  /** {@code aligned} or {@code as-read}; anything else is refused with the choices. */
  static boolean alignTransactions(String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "aligned" -> true;
      case "as-read" -> false;
      default ->
          throw new IllegalArgumentException(
              "Unknown "
                  + OrdersJobSettings.TRANSACTIONS_OPTION
                  + " '"
                  + value
                  + "'; use aligned (no commit holds part of a source transaction) or as-read");
    };
  }
}
