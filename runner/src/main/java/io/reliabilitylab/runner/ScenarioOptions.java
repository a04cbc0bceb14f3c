package io.reliabilitylab.runner;

import static io.reliabilitylab.spi.pipeline.LabOptions.CHECKPOINTS_PATH;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_DATABASE;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_HOST;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_JDBC_URL;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_PASSWORD;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_PORT;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_TABLE;
import static io.reliabilitylab.spi.pipeline.LabOptions.SOURCE_USER;
import static io.reliabilitylab.spi.pipeline.LabOptions.WAREHOUSE_PATH;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.mysql.SourceDatabase;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/** The {@link io.reliabilitylab.spi.pipeline.LabOptions} of one scenario's pipeline. */
@API(status = EXPERIMENTAL)
public final class ScenarioOptions {

  private ScenarioOptions() {}

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
