package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.source.mysql.BinlogClients;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;

/**
 * The running direct pipeline: {@link FlinkPipeline} with Flink CDC's MySQL source, which streams
 * once its binlog reader is connected to the source; also a team's own job on that source ({@code
 * ownjob}), under the team's pipeline name.
 */
final class DirectPipeline extends FlinkPipeline {

  private static final Duration POLL = Duration.ofMillis(100);

  private final String name;

  /** The reference job as pipeline {@code direct}, or a team's own job under its own name. */
  // The binlog dumps connected before the current job was submitted: not its own.
  private volatile Set<Long> earlierDumps;

  DirectPipeline(
      String name,
      FlinkCluster cluster,
      OrdersJob job,
      JobID jobId,
      PipelineConfig config,
      Set<Long> earlierDumps) {
    super(cluster, job, jobId, config);
    this.name = name;
    this.earlierDumps = Set.copyOf(earlierDumps);
  }

  @Override
  protected void beforeSubmit() throws Exception {
    earlierDumps = BinlogClients.dumpThreads(config.source());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public DeliverySemantics semantics() {
    return DeliverySemantics.EXACTLY_ONCE;
  }

  @Override
  protected Map<String, String> sourceVersions() {
    return Map.of(
        "flink_cdc_mysql", mavenVersion("org.apache.flink", "flink-sql-connector-mysql-cdc"));
  }

  /**
   * Flink CDC has left the snapshot phase once its binlog reader is connected to the source (a
   * {@code Binlog Dump} thread of the CDC account): changes written from then on arrive as binlog
   * events, not folded into snapshot reads.
   */
  @Override
  protected void awaitSourceStreaming(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    while (!binlogReaderConnected()) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException(
            "Flink CDC's binlog reader did not connect to the source within "
                + timeout.toSeconds()
                + " s; job "
                + jobId()
                + " is "
                + state());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private boolean binlogReaderConnected() throws SQLException {
    return BinlogClients.newDumpConnected(config.source(), earlierDumps);
  }
}
