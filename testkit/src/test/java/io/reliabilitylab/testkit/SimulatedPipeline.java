package io.reliabilitylab.testkit;

import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * An in-memory pipeline for the kit's own tests: a fault point armed at {@code now} fires at once,
 * the job restarts, completes a checkpoint and commits a snapshot. Nothing runs in the background.
 */
final class SimulatedPipeline implements PipelineUnderTest, FaultPoints, JobControl, TableAccess {

  private final Map<String, Instant> fired = new HashMap<>();
  private final List<JobFailure> failures = new ArrayList<>();
  private final List<CheckpointInfo> checkpoints = new ArrayList<>();
  private final List<SnapshotInfo> snapshots = new ArrayList<>();
  private long restarts;

  @Override
  public String name() {
    return "simulated";
  }

  @Override
  public DeliverySemantics semantics() {
    return DeliverySemantics.EXACTLY_ONCE;
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    return Set.of(FaultPoints.class, JobControl.class, TableAccess.class);
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    return capabilities().contains(type) ? Optional.of(type.cast(this)) : Optional.empty();
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
  public void close() {}

  // FaultPoints

  @Override
  public Set<String> available() {
    return Set.of("operator");
  }

  @Override
  public synchronized void arm(
      String point, FaultPosition position, String action, String faultId) {
    if (!(position instanceof FaultPosition.Now)) {
      return; // the simulation never reaches a later position
    }
    Instant at = Instant.now();
    fired.put(faultId, at);
    failures.add(
        new JobFailure(
            at,
            "java.lang.RuntimeException",
            action + " at " + point + ": " + faultId,
            point,
            null,
            false));
    restarts++;
    long checkpoint = checkpoints.size() + 1L;
    checkpoints.add(
        new CheckpointInfo(
            checkpoint, "COMPLETED", at.plusMillis(1), at.plusMillis(2), null, null, null, false));
    snapshots.add(
        new SnapshotInfo(
            currentTable(), checkpoint, at.plusMillis(3), "overwrite", "job-1", checkpoint));
  }

  @Override
  public synchronized void disarm(String faultId) {}

  @Override
  public synchronized Optional<Instant> firedAt(String faultId) {
    return Optional.ofNullable(fired.get(faultId));
  }

  // JobControl

  @Override
  public String jobId() {
    return "job-1";
  }

  @Override
  public JobState state() {
    return JobState.RUNNING;
  }

  @Override
  public synchronized long restartCount() {
    return restarts;
  }

  @Override
  public synchronized List<JobFailure> exceptionHistory() {
    return List.copyOf(failures);
  }

  @Override
  public synchronized List<CheckpointInfo> checkpoints() {
    return List.copyOf(checkpoints);
  }

  @Override
  public void awaitRunning(Duration timeout) {}

  @Override
  public synchronized CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException {
    return checkpoints.stream()
        .filter(c -> c.completed() && c.triggeredAt().isAfter(after))
        .findFirst()
        .orElseThrow(() -> new TimeoutException("no checkpoint completed after " + after));
  }

  // TableAccess

  @Override
  public RowSet source() {
    return RowSet.of(OrdersFixtures.SOURCE, "simulated source", OrdersFixtures.currentRows());
  }

  @Override
  public synchronized List<SnapshotInfo> snapshots(String table) {
    return List.copyOf(snapshots);
  }

  @Override
  public RowSet current(long snapshotId) {
    return OrdersFixtures.rowSet(OrdersFixtures.CURRENT, OrdersFixtures.currentRows());
  }

  @Override
  public Changelog changelog(long snapshotId) {
    return OrdersFixtures.changelog(OrdersFixtures.CHANGELOG, OrdersFixtures.changes());
  }

  @Override
  public Changelog changelogAppended(
      @org.jspecify.annotations.Nullable Long fromSnapshotExclusive, long toSnapshotInclusive) {
    return changelog(toSnapshotInclusive);
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
