package io.reliabilitylab.pipeline.direct;

import io.reliabilitylab.harness.lifecycle.LabOptions;
import io.reliabilitylab.pipeline.direct.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.direct.iceberg.IcebergTableReader;
import io.reliabilitylab.pipeline.direct.iceberg.IcebergWarehouse;
import io.reliabilitylab.pipeline.direct.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.direct.job.DirectJob;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running direct pipeline as the lab sees it: the job on its cluster ({@link JobControl}) and
 * the two Iceberg tables ({@link TableAccess}). Closing it cancels the job and stops a cluster it
 * started.
 */
final class DirectPipeline implements PipelineUnderTest, JobControl, TableAccess {

  private static final Logger LOG = LoggerFactory.getLogger(DirectPipeline.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final FlinkCluster cluster;
  private final DirectJob job;
  private final JobID jobId;
  private final PipelineConfig config;
  private final IcebergWarehouse warehouse;

  DirectPipeline(FlinkCluster cluster, DirectJob job, JobID jobId, PipelineConfig config) {
    this.cluster = cluster;
    this.job = job;
    this.jobId = jobId;
    this.config = config;
    this.warehouse = IcebergWarehouse.open(job.config().warehouse());
  }

  /**
   * Waits until the job runs and Flink CDC has left the snapshot phase: its binlog reader is
   * connected to the source (a {@code Binlog Dump} thread of the CDC account), so that changes
   * written from now on arrive as binlog events, not folded into snapshot reads.
   */
  void awaitStreaming(Duration timeout) throws Exception {
    cluster.awaitRunning(jobId, timeout);
    Instant deadline = Instant.now().plus(timeout);
    while (!binlogReaderConnected()) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException(
            "Flink CDC's binlog reader did not connect to the source within "
                + timeout.toSeconds()
                + " s; job "
                + jobId
                + " is "
                + cluster.status(jobId));
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private boolean binlogReaderConnected() throws SQLException {
    String url = config.option(LabOptions.SOURCE_JDBC_URL).orElseThrow();
    try (Connection connection =
            DriverManager.getConnection(
                url,
                config.option(LabOptions.SOURCE_USER).orElseThrow(),
                config.option(LabOptions.SOURCE_PASSWORD).orElseThrow());
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE COMMAND LIKE 'Binlog Dump%' AND USER = ?")) {
      statement.setString(1, config.option(LabOptions.SOURCE_USER).orElseThrow());
      try (ResultSet result = statement.executeQuery()) {
        return result.next() && result.getLong(1) > 0;
      }
    }
  }

  @Override
  public String name() {
    return "direct";
  }

  @Override
  public DeliverySemantics semantics() {
    return DeliverySemantics.EXACTLY_ONCE;
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    return Set.of(JobControl.class, TableAccess.class);
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    return capabilities().contains(type) ? Optional.of(type.cast(this)) : Optional.empty();
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>(job.config().effectiveConfiguration());
    settings.put("flink.cluster", cluster.restAddress().toString());
    return settings;
  }

  @Override
  public Map<String, String> stackVersions() {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("flink", EnvironmentInformation.getVersion());
    versions.put(
        "flink_cdc_mysql",
        packageVersion(
            DirectJob.class, "org.apache.flink.cdc.connectors.mysql.source.MySqlSource"));
    versions.put("iceberg", packageVersion(DirectJob.class, "org.apache.iceberg.Table"));
    versions.put("java", System.getProperty("java.version"));
    return versions;
  }

  private static String packageVersion(Class<?> anchor, String className) {
    try {
      Package found = Class.forName(className, false, anchor.getClassLoader()).getPackage();
      String version = found == null ? null : found.getImplementationVersion();
      return version == null ? "unknown" : version;
    } catch (ClassNotFoundException e) {
      return "absent";
    }
  }

  // JobControl

  @Override
  public String jobId() {
    return jobId.toHexString();
  }

  @Override
  public JobState state() {
    try {
      JobStatus status = cluster.status(jobId);
      return JobState.valueOf(status.name());
    } catch (Exception e) {
      LOG.debug("Job status of {} unavailable", jobId, e);
      return JobState.UNKNOWN;
    }
  }

  @Override
  public long restartCount() {
    try {
      return cluster.restartCount(jobId);
    } catch (Exception e) {
      throw new IllegalStateException("The restart count of job " + jobId + " is unavailable", e);
    }
  }

  @Override
  public List<JobFailure> exceptionHistory() {
    try {
      return cluster.exceptionHistory(jobId);
    } catch (Exception e) {
      throw new IllegalStateException(
          "The exception history of job " + jobId + " is unavailable", e);
    }
  }

  @Override
  public List<CheckpointInfo> checkpoints() {
    try {
      return cluster.checkpoints(jobId);
    } catch (Exception e) {
      throw new IllegalStateException("The checkpoints of job " + jobId + " are unavailable", e);
    }
  }

  @Override
  public void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
    try {
      cluster.awaitRunning(jobId, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Job " + jobId + " did not run: " + e.getMessage(), e);
    }
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    try {
      return cluster.awaitCompletedCheckpointAfter(jobId, after, timeout);
    } catch (TimeoutException | InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(
          "No checkpoint of job " + jobId + " completed: " + e.getMessage(), e);
    }
  }

  // TableAccess

  @Override
  public RowSet source() {
    throw new UnsupportedOperationException(
        "The harness reads the source itself (SourceRowReader); the direct pipeline does not");
  }

  @Override
  public List<SnapshotInfo> snapshots(String table) {
    return IcebergTableReader.snapshots(load(table));
  }

  @Override
  public RowSet current(long snapshotId) {
    return IcebergTableReader.current(load(OrdersTables.CURRENT), snapshotId);
  }

  @Override
  public Changelog changelog(long snapshotId) {
    return IcebergTableReader.changelog(load(OrdersTables.CHANGELOG), snapshotId);
  }

  @Override
  public String currentTable() {
    return OrdersTables.CURRENT;
  }

  @Override
  public String changelogTable() {
    return OrdersTables.CHANGELOG;
  }

  private Table load(String table) {
    return warehouse.load(TableIdentifier.of(job.config().namespace(), table));
  }

  @Override
  public void close() throws Exception {
    try {
      JobStatus status = cluster.status(jobId);
      if (!status.isGloballyTerminalState()) {
        cluster.cancel(jobId);
      }
    } catch (Exception e) {
      LOG.warn("Could not cancel job {}: {}", jobId, e.getMessage());
    } finally {
      try {
        warehouse.close();
      } finally {
        cluster.close();
      }
    }
  }
}
