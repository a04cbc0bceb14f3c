package io.reliabilitylab.harness.cli;

import io.reliabilitylab.spi.pipeline.LabOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * How the pipeline runs, shared by the commands that start one: checkpoints, parallelism, cluster.
 */
final class PipelineOptions {

  @Option(
      names = "--checkpoint-interval",
      defaultValue = "500ms",
      converter = DurationConverter.class,
      description =
          "Flink checkpoint interval (and thus the Iceberg commit cadence), e.g. 1s or 500ms."
              + " Default: ${DEFAULT-VALUE}.")
  // Short, so that a fault cycle takes seconds: every wait for a sink commit, and Flink CDC's
  // step from snapshot to binlog reading, waits for a checkpoint.
  private Duration checkpointInterval = Duration.ofMillis(500);

  @Option(names = "--parallelism", description = "Job parallelism (default: the pipeline's own).")
  private @Nullable Integer parallelism;

  @Option(
      names = "--flink-rest-address",
      description = "Run on a Flink session cluster at this REST address instead of a MiniCluster.")
  private @Nullable String flinkRestAddress;

  @Option(
      names = "--flink-cluster",
      paramLabel = "CLUSTER",
      description =
          "The Flink cluster the lab starts: embedded (a MiniCluster in this JVM, the default) or"
              + " processes[:<N>tm][:2jm] (a JobManager and N TaskManager JVMs, default 2; 2jm"
              + " adds a standby JobManager and ZooKeeper), e.g. processes, processes:3,"
              + " processes:1tm:2jm.")
  private @Nullable String flinkCluster;

  @Option(
      names = "--sink-catalog",
      paramLabel = "CATALOG",
      description =
          "Where the Iceberg tables live: hadoop (a warehouse directory per scenario, the"
              + " default), embedded-rest (an Iceberg REST catalog the lab runs over an"
              + " S3-compatible object store it runs, data and metadata on the store) or"
              + " rest=<URI> (your REST catalog; its client properties with --pipeline-option"
              + " sink.catalog.property.<name>=<value>, its credential from"
              + " SRL_SINK_CATALOG_CREDENTIAL or SRL_SINK_CATALOG_TOKEN, the object store's keys"
              + " from the AWS environment).")
  private @Nullable String sinkCatalog;

  @Option(
      names = "--catch-up-timeout",
      defaultValue = "120s",
      converter = DurationConverter.class,
      description =
          "The deadline of every wait for the sink (catch-up, fault proof, recovery)."
              + " Default: ${DEFAULT-VALUE}.")
  private Duration catchUpTimeout = Duration.ofSeconds(120);

  @Option(
      names = "--pipeline-option",
      paramLabel = "KEY=VALUE",
      description =
          "A pipeline option passed as is, repeatable; e.g. job.variant=broken-current-append"
              + " runs the direct pipeline's negative control.")
  private Map<String, String> extra = new LinkedHashMap<>();

  /** The options given with {@code --pipeline-option}, as given. */
  Map<String, String> extra() {
    return Map.copyOf(extra);
  }

  Duration catchUpTimeout() {
    return catchUpTimeout;
  }

  Duration checkpointInterval() {
    return checkpointInterval;
  }

  /** The pipeline options these settings stand for ({@link LabOptions} keys). */
  Map<String, String> asOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(LabOptions.CHECKPOINT_INTERVAL_MS, Long.toString(checkpointInterval.toMillis()));
    if (parallelism != null) {
      options.put(LabOptions.PARALLELISM, parallelism.toString());
    }
    if (flinkRestAddress != null) {
      options.put(LabOptions.FLINK_REST_ADDRESS, flinkRestAddress);
    }
    if (flinkCluster != null) {
      options.put(LabOptions.FLINK_CLUSTER, flinkCluster);
    }
    if (sinkCatalog != null) {
      options.putAll(sinkCatalogOptions(sinkCatalog));
    }
    options.putAll(extra);
    return options;
  }

  /** {@code --sink-catalog}'s value as pipeline options; a REST URI follows {@code rest=}. */
  static Map<String, String> sinkCatalogOptions(String value) {
    String text = value.strip();
    int equals = text.indexOf('=');
    String kind = equals < 0 ? text : text.substring(0, equals).strip();
    Map<String, String> options = new LinkedHashMap<>();
    options.put(LabOptions.SINK_CATALOG, kind);
    if (equals >= 0) {
      options.put(LabOptions.SINK_CATALOG_URI, text.substring(equals + 1).strip());
    }
    return options;
  }
}
