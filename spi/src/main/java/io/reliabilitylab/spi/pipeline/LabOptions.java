package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The option keys the lab's runner passes to every pipeline in its {@link PipelineConfig}: where
 * the sink tables and checkpoints live, and the timing knobs. Pipelines read these; users may add
 * their own. The source is not an option but {@link PipelineConfig#source()}, so that its password
 * never travels in a map of strings.
 */
@API(status = EXPERIMENTAL)
public final class LabOptions {

  public static final String WAREHOUSE_PATH = "sink.warehouse-path";

  /**
   * Which Iceberg catalog the sink tables live in: {@code hadoop} (the default: a Hadoop catalog on
   * {@link #WAREHOUSE_PATH}), {@code embedded-rest} (an Iceberg REST catalog the lab runs, over an
   * S3-compatible object store it runs as a process, shared by the scenarios of a suite) or {@code
   * rest} (a team's REST catalog at {@link #SINK_CATALOG_URI}). On a REST catalog each scenario's
   * tables get a namespace of their own.
   */
  public static final String SINK_CATALOG = "sink.catalog";

  /** The REST catalog's base URI, for {@link #SINK_CATALOG} {@code rest}. */
  public static final String SINK_CATALOG_URI = "sink.catalog.uri";

  /**
   * The prefix of the REST catalog's client properties, for {@link #SINK_CATALOG} {@code rest}:
   * {@code sink.catalog.property.io-impl}, {@code sink.catalog.property.s3.endpoint}. Secrets are
   * no options (a secret-named property is refused): the catalog's OAuth credential or token comes
   * from the environment variable {@code SRL_SINK_CATALOG_CREDENTIAL} or {@code
   * SRL_SINK_CATALOG_TOKEN}, the object store's keys from the AWS SDK's own chain.
   */
  public static final String SINK_CATALOG_PROPERTY_PREFIX = "sink.catalog.property.";

  /** Where the embedded REST catalog and object store keep their files, beside the scenarios. */
  public static final String SINK_CATALOG_DIRECTORY = "sink.catalog.directory";

  public static final String CHECKPOINTS_PATH = "checkpoints.path";
  public static final String CHECKPOINT_INTERVAL_MS = "checkpoint.interval-ms";

  /** How long a checkpoint may take before it is declared failed. */
  public static final String CHECKPOINT_TIMEOUT_MS = "checkpoint.timeout-ms";

  public static final String PARALLELISM = "parallelism";
  public static final String FLINK_REST_ADDRESS = "flink.rest-address";

  /**
   * Which Flink cluster the lab starts for the job: {@code embedded} (a MiniCluster in the lab's
   * JVM, the default) or {@code processes[:<N>tm][:2jm]} (JobManager and TaskManager JVMs of their
   * own; {@code 2jm} adds a standby JobManager and ZooKeeper for high availability).
   */
  public static final String FLINK_CLUSTER = "flink.cluster";

  /** Where a cluster of processes keeps its configuration, logs, pid files and HA storage. */
  public static final String FLINK_CLUSTER_DIRECTORY = "flink.cluster.directory";

  /**
   * Which database engine the source runs, {@code mysql} or {@code postgresql}: given to {@link
   * PipelineProvider#capabilities(java.util.Map)} alone (a pipeline learns its source from {@link
   * PipelineConfig#source()}), so that {@code --faults all} picks the faults the source can host
   * before the source is started.
   */
  public static final String SOURCE_ENGINE = "source.engine";

  /** {@link #SOURCE_ENGINE} for MySQL and MariaDB. */
  public static final String MYSQL = "mysql";

  /** {@link #SOURCE_ENGINE} for PostgreSQL. */
  public static final String POSTGRESQL = "postgresql";

  /**
   * Milliseconds between the heartbeat records the change-log reader emits while the source is
   * idle, where the pipeline supports it ({@link SourceHeartbeats}); unset, the connector's own
   * default.
   */
  public static final String SOURCE_HEARTBEAT_INTERVAL_MS = "source.heartbeat-interval-ms";

  /**
   * Rows per chunk (split) of the source's incremental snapshot, where the pipeline reads its
   * snapshot in chunks ({@link SnapshotSplits}); unset, the pipeline's default.
   */
  public static final String SOURCE_SNAPSHOT_SPLIT_SIZE = "source.snapshot.split-size";

  /**
   * {@code true}: the pipeline's connections to its source database (and its Kafka broker, where it
   * has one) go through TCP proxies of the lab, which network faults act on ({@link
   * SourceNetworkLink}, {@link BrokerNetworkLink}). Set by the network faults' own scenarios; off
   * by default, so that other runs measure the pipeline without the extra hop.
   */
  public static final String NETWORK_PROXY = "network.proxy";

  private LabOptions() {}
}
