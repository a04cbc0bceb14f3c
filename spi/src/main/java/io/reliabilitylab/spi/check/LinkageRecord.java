package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One observation tying the pipeline's positions together at a moment: per partition Kafka offsets,
 * the Flink checkpoint, and the Iceberg snapshot of each table with the checkpoint that committed
 * it.
 *
 * @param label when it was taken, e.g. {@code baseline}, {@code repair}, {@code final}
 * @param takenAt the wall-clock time of the observation
 * @param topic the source topic (empty for pipelines without a broker)
 * @param consumerGroup the consumer group whose committed offsets are shown
 * @param offsets per partition committed offset and log-end offset
 * @param checkpoint the latest Flink checkpoint at that time, if any
 * @param snapshots per table the current Iceberg snapshot and its committing checkpoint
 */
@API(status = STABLE)
public record LinkageRecord(
    String label,
    Instant takenAt,
    String topic,
    String consumerGroup,
    List<PartitionOffset> offsets,
    @Nullable CheckpointRef checkpoint,
    Map<String, SnapshotRef> snapshots) {

  public LinkageRecord {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(takenAt, "takenAt");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(consumerGroup, "consumerGroup");
    offsets = List.copyOf(offsets);
    snapshots = Collections.unmodifiableMap(new LinkedHashMap<>(snapshots));
  }

  /** A partition's committed offset, its log-end offset and the lag between them. */
  public record PartitionOffset(int partition, long committedOffset, long logEndOffset) {
    public long lag() {
      return Math.max(0, logEndOffset - committedOffset);
    }
  }

  /** A Flink checkpoint: id, status ({@code COMPLETED}, {@code FAILED}, ...), external path. */
  public record CheckpointRef(long id, String status, @Nullable String externalPath) {}

  /**
   * An Iceberg snapshot and, from its summary, the Flink job and checkpoint that committed it
   * ({@code flink.job-id}, {@code flink.max-committed-checkpoint-id}).
   */
  public record SnapshotRef(
      long snapshotId, @Nullable String flinkJobId, @Nullable Long committedCheckpointId) {}
}
