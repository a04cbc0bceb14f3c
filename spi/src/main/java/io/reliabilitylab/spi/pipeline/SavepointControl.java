package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import org.apiguardian.api.API;

/** Stops a job with a savepoint and restores it, also from a retained checkpoint. */
@API(status = STABLE)
public interface SavepointControl extends PipelineCapability {

  /** Stops the job with a savepoint and returns the savepoint's path. */
  String stopWithSavepoint(Duration timeout) throws Exception;

  /** Starts the job again from a savepoint or retained checkpoint under a new job id. */
  String restore(String path, int parallelism) throws Exception;

  /**
   * The path of the latest retained checkpoint, for a restore after the cluster died; found on the
   * checkpoint storage, so it answers after {@link #loseCluster()} too.
   */
  String latestRetainedCheckpoint() throws Exception;

  /**
   * Ends the job abruptly as if its cluster died: no savepoint, no graceful stop; retained
   * checkpoints stay on their storage. A later {@link #restore} starts the job (on a new cluster,
   * where the pipeline owns it) under a new job id. An embedded cluster is stopped inside the JVM,
   * not killed as a process: state that as the claim boundary.
   */
  default void loseCluster() throws Exception {
    throw new UnsupportedOperationException(
        "This pipeline cannot lose its cluster; it offers stop-with-savepoint and restore only");
  }

  /**
   * Takes a savepoint while the job keeps running and returns the savepoint's path; the job keeps
   * its id and goes on checkpointing and committing after it.
   */
  default String triggerSavepoint(Duration timeout) throws Exception {
    throw new UnsupportedOperationException(
        "This pipeline cannot take a savepoint without stopping its job");
  }

  /**
   * Starts the job again from a savepoint or retained checkpoint under the job id it had, and
   * returns that id. A fixed job id is what Flink's application mode gives a job (its id is derived
   * from the cluster id unless set), so restarting an application-mode deployment from an older
   * savepoint keeps the id; sinks that key their committed state by job id (Iceberg's {@code
   * flink.job-id} and {@code flink.max-committed-checkpoint-id}, apache/iceberg#10892) then see
   * commits the restored state does not know of. Flink refuses a duplicate job id on a cluster that
   * ran it, so a pipeline typically offers this only after {@link #loseCluster()}.
   */
  default String restoreKeepingJobId(String path, int parallelism) throws Exception {
    throw new UnsupportedOperationException(
        "This pipeline cannot restore a job under the job id it had; it restores under a new id");
  }
}
