package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Says that the pipeline's source reads its initial snapshot in chunks (splits) of a row count the
 * pipeline option {@value LabOptions#SOURCE_SNAPSHOT_SPLIT_SIZE} sets, checkpointing between them,
 * as Flink CDC's incremental snapshot does: a fault whose hazard lives in a failure between two
 * chunks needs it.
 */
@API(status = EXPERIMENTAL)
public interface SnapshotSplits extends PipelineCapability {

  /** Rows per chunk of the snapshot. */
  int splitSize();
}
