package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The option keys the lab's runner passes to every pipeline in its {@link PipelineConfig}: where
 * the source is, where the sink tables and checkpoints live, and the timing knobs. Pipelines read
 * these; users may add their own.
 */
@API(status = EXPERIMENTAL)
public final class LabOptions {

  public static final String SOURCE_HOST = "source.host";
  public static final String SOURCE_PORT = "source.port";
  public static final String SOURCE_DATABASE = "source.database";
  public static final String SOURCE_TABLE = "source.table";
  public static final String SOURCE_USER = "source.user";

  /** The CDC user's password; never recorded (the run record masks every key named *password*). */
  public static final String SOURCE_PASSWORD = "source.password";

  public static final String SOURCE_JDBC_URL = "source.jdbc-url";
  public static final String WAREHOUSE_PATH = "sink.warehouse-path";
  public static final String CHECKPOINTS_PATH = "checkpoints.path";
  public static final String CHECKPOINT_INTERVAL_MS = "checkpoint.interval-ms";

  /** How long a checkpoint may take before it is declared failed. */
  public static final String CHECKPOINT_TIMEOUT_MS = "checkpoint.timeout-ms";

  public static final String PARALLELISM = "parallelism";
  public static final String FLINK_REST_ADDRESS = "flink.rest-address";

  private LabOptions() {}
}
