package io.reliabilitylab.runner;

import static io.reliabilitylab.spi.pipeline.LabOptions.CHECKPOINTS_PATH;
import static io.reliabilitylab.spi.pipeline.LabOptions.FLINK_CLUSTER_DIRECTORY;
import static io.reliabilitylab.spi.pipeline.LabOptions.SINK_CATALOG_DIRECTORY;
import static io.reliabilitylab.spi.pipeline.LabOptions.WAREHOUSE_PATH;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The {@link io.reliabilitylab.spi.pipeline.LabOptions} of one scenario's pipeline. The source is
 * not among them: it reaches the pipeline as {@link
 * io.reliabilitylab.spi.pipeline.PipelineConfig#source()}, built by {@link
 * io.reliabilitylab.source.jdbc.CdcSource#endpoint(String)}.
 */
@API(status = EXPERIMENTAL)
public final class ScenarioOptions {

  private ScenarioOptions() {}

  /**
   * The scenario's own sink and checkpoint directories, and beside the scenarios the directory of a
   * Flink cluster of processes and of the embedded sink catalog, which the scenarios of a suite
   * share.
   */
  public static Map<String, String> of(Path scenarioDirectory) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(WAREHOUSE_PATH, scenarioDirectory.resolve("warehouse").toString());
    options.put(CHECKPOINTS_PATH, scenarioDirectory.resolve("checkpoints").toString());
    Path absolute = scenarioDirectory.toAbsolutePath().normalize();
    Path suite = absolute.getParent() != null ? absolute.getParent() : absolute;
    options.put(FLINK_CLUSTER_DIRECTORY, suite.resolve("flink-cluster").toString());
    options.put(SINK_CATALOG_DIRECTORY, suite.resolve("sink-catalog").toString());
    return options;
  }
}
