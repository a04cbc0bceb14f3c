package io.reliabilitylab.runner.phase;

import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A pipeline that runs nothing: a job that is running with no checkpoint, tables without snapshots
 * and, when given observations, the {@link RunEvidence} capability answering them. It remembers
 * whether it was stopped and which moments it was asked about.
 */
final class StandInPipeline implements PipelineUnderTest, JobControl, TableAccess {

  private final @Nullable Map<RunEvidence.Moment, RunEvidence.Observation> observations;
  final List<RunEvidence.Moment> asked = new ArrayList<>();
  boolean closed;
  @Nullable RuntimeException failsToClose;

  /** Without {@link RunEvidence}. */
  StandInPipeline() {
    this(null);
  }

  StandInPipeline(@Nullable Map<RunEvidence.Moment, RunEvidence.Observation> observations) {
    this.observations = observations;
  }

  RunningPipeline running() {
    return new RunningPipeline(this, this, this);
  }

  @Override
  public String name() {
    return "stand-in";
  }

  @Override
  public DeliverySemantics semantics() {
    return DeliverySemantics.EXACTLY_ONCE;
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(Set.of(JobControl.class, TableAccess.class));
    if (observations != null) {
      offered.add(RunEvidence.class);
    }
    return offered;
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (type == RunEvidence.class && observations != null) {
      RunEvidence evidence =
          moment -> {
            asked.add(moment);
            return observations.getOrDefault(moment, RunEvidence.Observation.NONE);
          };
      return Optional.of(type.cast(evidence));
    }
    return type.isInstance(this) && type != RunEvidence.class
        ? Optional.of(type.cast(this))
        : Optional.empty();
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    return Map.of();
  }

  @Override
  public Map<String, String> stackVersions() {
    return Map.of();
  }

  @Override
  public void close() {
    closed = true;
    if (failsToClose != null) {
      throw failsToClose;
    }
  }

  @Override
  public String jobId() {
    return "stand-in-job";
  }

  @Override
  public JobState state() {
    return JobState.RUNNING;
  }

  @Override
  public long restartCount() {
    return 0;
  }

  @Override
  public List<JobFailure> exceptionHistory() {
    return List.of();
  }

  @Override
  public List<CheckpointInfo> checkpoints() {
    return List.of();
  }

  @Override
  public void awaitRunning(Duration timeout) {}

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout) {
    return new CheckpointInfo(1, "COMPLETED", after, after, null, null, null, false);
  }

  @Override
  public RowSet source() {
    throw new UnsupportedOperationException("the stand-in has no source");
  }

  @Override
  public List<SnapshotInfo> snapshots(String table) {
    return List.of();
  }

  @Override
  public RowSet current(long snapshotId) {
    throw new UnsupportedOperationException("the stand-in has no snapshot " + snapshotId);
  }

  @Override
  public Changelog changelog(long snapshotId) {
    throw new UnsupportedOperationException("the stand-in has no snapshot " + snapshotId);
  }

  @Override
  public Changelog changelogAppended(
      @Nullable Long fromSnapshotExclusive, long toSnapshotInclusive) {
    throw new UnsupportedOperationException("the stand-in has no changelog");
  }

  @Override
  public String currentTable() {
    return "orders_current";
  }

  @Override
  public String changelogTable() {
    return "orders_changelog";
  }
}
