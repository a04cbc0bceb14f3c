package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One committed table snapshot and, from its summary, who committed it.
 *
 * @param table the table
 * @param snapshotId the snapshot id
 * @param committedAt the commit time
 * @param operation {@code append}, {@code overwrite}, {@code replace}, {@code delete}
 * @param flinkJobId the {@code flink.job-id} summary entry, if any
 * @param committedCheckpointId the {@code flink.max-committed-checkpoint-id} entry, if any
 */
@API(status = STABLE)
public record SnapshotInfo(
    String table,
    long snapshotId,
    Instant committedAt,
    String operation,
    @Nullable String flinkJobId,
    @Nullable Long committedCheckpointId) {

  public SnapshotInfo {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(committedAt, "committedAt");
    Objects.requireNonNull(operation, "operation");
  }
}
