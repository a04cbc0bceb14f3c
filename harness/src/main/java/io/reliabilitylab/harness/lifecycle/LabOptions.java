package io.reliabilitylab.harness.lifecycle;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.harness.source.SourceDatabase;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The option keys the harness passes to every pipeline in its {@link
 * io.reliabilitylab.spi.pipeline.PipelineConfig}: where the source is, where the sink tables and
 * checkpoints live, and the timing knobs. Pipelines read these; users may add their own.
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

  /** The source coordinates of {@code source} and the scenario's own sink and checkpoint dirs. */
  public static Map<String, String> of(
      SourceDatabase source, String table, Path scenarioDirectory) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(SOURCE_HOST, source.host());
    options.put(SOURCE_PORT, Integer.toString(source.port()));
    options.put(SOURCE_DATABASE, source.database());
    options.put(SOURCE_TABLE, table);
    options.put(SOURCE_USER, source.cdcCredentials().user());
    options.put(SOURCE_PASSWORD, source.cdcCredentials().password());
    options.put(SOURCE_JDBC_URL, source.jdbcUrl());
    options.put(WAREHOUSE_PATH, scenarioDirectory.resolve("warehouse").toString());
    options.put(CHECKPOINTS_PATH, scenarioDirectory.resolve("checkpoints").toString());
    return options;
  }
}
