package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.Capabilities;
import io.reliabilitylab.runner.ScenarioOptions;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobSubmittedListener;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A started pipeline with the two capabilities the lab cannot work without: its job and its tables.
 * Closing it stops the pipeline.
 *
 * @param pipeline the pipeline as started
 * @param job its job
 * @param tables its sink tables
 */
@API(status = INTERNAL)
public record RunningPipeline(PipelineUnderTest pipeline, JobControl job, TableAccess tables)
    implements AutoCloseable {

  /**
   * The configuration of a pipeline that captures {@code table} of {@code source} and keeps its
   * files (warehouse, checkpoints) in {@code directory}, with {@code options} on top.
   */
  public static PipelineConfig configuration(
      CdcSource source,
      String table,
      Path directory,
      Map<String, String> options,
      JobSubmittedListener onJobSubmitted) {
    // The one place the source's coordinates reach a pipeline's configuration.
    Map<String, String> all = new LinkedHashMap<>(ScenarioOptions.of(directory));
    all.putAll(options);
    return new PipelineConfig(source.endpoint(table), all, directory, onJobSubmitted);
  }

  /**
   * Starts {@code provider}'s pipeline; a pipeline without a job or tables is stopped again and
   * refused with a sentence naming what is missing and {@code purpose} ("to run a scenario").
   */
  public static RunningPipeline start(
      PipelineProvider provider, PipelineConfig configuration, String purpose) throws Exception {
    PipelineUnderTest pipeline = provider.start(configuration);
    try {
      return new RunningPipeline(
          pipeline,
          Capabilities.require(pipeline, JobControl.class, purpose),
          Capabilities.require(pipeline, TableAccess.class, purpose));
    } catch (RuntimeException e) {
      try {
        pipeline.close();
      } catch (Exception stopping) {
        e.addSuppressed(stopping);
      }
      throw e;
    }
  }

  /** The snapshots of both tables, the current table's first. */
  public List<SnapshotInfo> snapshots() throws Exception {
    List<SnapshotInfo> all = new ArrayList<>(tables.snapshots(tables.currentTable()));
    all.addAll(tables.snapshots(tables.changelogTable()));
    return all;
  }

  @Override
  public void close() throws Exception {
    pipeline.close();
  }
}
