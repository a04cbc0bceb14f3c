package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.pipeline.direct.job.SourceEngine;
import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.source.mysql.TransactionFence;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.SourceHeartbeats;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.jspecify.annotations.Nullable;

/**
 * The running direct pipeline: {@link FlinkPipeline} with Flink CDC's MySQL or PostgreSQL source,
 * which streams once its change-log reader is connected to the source ({@link StreamReaders}); also
 * a team's own job on that source ({@code ownjob}), under the team's pipeline name.
 */
final class DirectPipeline extends FlinkPipeline
    implements ReplicationSlotAccess, SourceHeartbeats, SnapshotSplits {

  private static final Duration POLL = Duration.ofMillis(100);

  /** The reference job as pipeline {@code direct}, or a team's own job under its own name. */
  private final String name;

  private final StreamReaders readers;

  /** The source's transaction fence, written while a job that aligns transactions runs. */
  private final @Nullable TransactionFence fence;

  DirectPipeline(
      String name,
      FlinkCluster cluster,
      OrdersJob job,
      JobID jobId,
      PipelineConfig config,
      StreamReaders readers,
      @Nullable TransactionFence fence) {
    super(cluster, job, jobId, config);
    this.name = name;
    this.readers = readers;
    this.fence = fence;
  }

  @Override
  protected void beforeSubmit() throws Exception {
    readers.beforeSubmit();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public DeliverySemantics semantics() {
    return DeliverySemantics.EXACTLY_ONCE;
  }

  /**
   * What a Flink pipeline offers, the snapshot's chunks, and on PostgreSQL the job's replication
   * slot and, when the pipeline set their interval, the source's heartbeats.
   */
  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(super.capabilities());
    offered.add(SnapshotSplits.class);
    if (readers.replicationSlot().isEmpty()) {
      return Set.copyOf(offered);
    }
    offered.add(ReplicationSlotAccess.class);
    if (config.option(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS).isPresent()) {
      offered.add(SourceHeartbeats.class);
    }
    return Set.copyOf(offered);
  }

  @Override
  public Duration heartbeatInterval() {
    String millis =
        config
            .option(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS)
            .orElseThrow(() -> new IllegalStateException(name + " has no heartbeat interval set"));
    return Duration.ofMillis(Long.parseLong(millis.strip()));
  }

  @Override
  public int splitSize() {
    return DirectPipelineProvider.splitSize(config);
  }

  @Override
  public String replicationSlot() {
    return readers
        .replicationSlot()
        .orElseThrow(() -> new IllegalStateException(name + " reads a binlog, not a slot"));
  }

  @Override
  protected Map<String, String> sourceVersions() {
    return SourceEngine.of(config.source()) == SourceEngine.POSTGRES
        ? Map.of(
            "flink_cdc_postgres",
            mavenVersion("org.apache.flink", "flink-sql-connector-postgres-cdc"))
        : Map.of(
            "flink_cdc_mysql", mavenVersion("org.apache.flink", "flink-sql-connector-mysql-cdc"));
  }

  /**
   * Flink CDC has left the snapshot phase once its change-log reader is connected to the source (a
   * {@code Binlog Dump} thread of the CDC account, or a walsender holding the job's slot): changes
   * written from then on arrive from the log, not folded into snapshot reads.
   */
  @Override
  protected void awaitSourceStreaming(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    while (!readers.newReaderConnected()) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException(
            readers.reader()
                + " did not connect to the source within "
                + timeout.toSeconds()
                + " s; job "
                + jobId()
                + " is "
                + state());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Stops the job and the cluster, then drops what the job kept on the source (its slot) and stops
   * the transaction fence (after the job: a fence stopped under a running aligned job stalls it).
   */
  @Override
  public void close() {
    try {
      super.close();
    } finally {
      try {
        readers.release();
      } finally {
        if (fence != null) {
          fence.close();
        }
      }
    }
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>(super.effectiveConfiguration());
    if (fence != null) {
      settings.put(
          "source.transaction-fence", TransactionFence.qualifiedTable() + ": " + fence.describe());
    }
    return settings;
  }
}
