package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Runs the sink's table maintenance (compaction) against a table, possibly while the pipeline
 * streams into it; the report says what changed and which commit conflicts were met.
 */
@API(status = EXPERIMENTAL)
public interface TableMaintenance extends PipelineCapability {

  /**
   * Rewrites the table's small data files (applying its deletes) into fewer files and commits the
   * rewrite; a commit conflict with a concurrent writer is reported, not hidden, and does not
   * throw.
   */
  MaintenanceReport compact(String table) throws Exception;
}
