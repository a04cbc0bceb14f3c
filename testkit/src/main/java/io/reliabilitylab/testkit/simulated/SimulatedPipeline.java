package io.reliabilitylab.testkit.simulated;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory streaming job that really fails when a fault point fires, so that a fault plugin is
 * unit-tested without Flink, a database or Iceberg: a background tick (every 2 ms) processes
 * {@value #EVENTS_PER_TICK} events, takes a checkpoint every {@value #TICKS_PER_CHECKPOINT} ticks,
 * commits each completed checkpoint as a snapshot of both tables ({@value #CURRENT}, {@value
 * #CHANGELOG}), and records restarts, exception history, checkpoint failures and TaskManager losses
 * the way an engine would. A restart takes {@value #RESTART_TICKS} ticks and waits for a
 * TaskManager.
 *
 * <pre>{@code
 * try (SimulatedPipeline pipeline = SimulatedPipeline.running()) {
 *   FaultContext context =
 *       new FaultContext(pipeline, spec, Clock.systemUTC(), Duration.ofSeconds(10), tempDir);
 *   FaultHandle handle = new MyFault().inject(context);
 *   assertThat(handle.awaitFired(Duration.ofSeconds(10)).status()).isEqualTo(FaultStatus.FIRED);
 *   assertThat(handle.awaitRecovery(Duration.ofSeconds(10)).recovered()).isTrue();
 * }
 * }</pre>
 *
 * <p>Its fault points are {@code source-enumerator}, {@code operator}, {@code checkpoint-storage},
 * {@code sink-commit} and {@code sink-commit-current}, armed with {@code throw}, {@code stall},
 * {@code fail-commit-before-swap}, {@code fail-commit-after-swap} or {@code commit-state-unknown}:
 *
 * <ul>
 *   <li>{@code throw} at {@code operator} or {@code source-enumerator} fails the job once the
 *       position is reached (now, after event k, in the snapshot phase; at checkpoint n it fails
 *       that checkpoint too); the failure's message carries the fault id and the job restarts;
 *   <li>{@code stall} there holds an element (nothing fails) or, at a checkpoint, makes that
 *       checkpoint hang until it expires after {@value #CHECKPOINT_TIMEOUT_TICKS} ticks;
 *   <li>{@code checkpoint-storage} fails (or stalls) the checkpoint only: the job tolerates it;
 *   <li>a {@code sink-commit} point armed around the commit of checkpoint n fails the job when that
 *       commit is made, after the commit when the position says after the swap.
 * </ul>
 *
 * <p>Knobs ({@link #hideFaultIds()}, {@link #extraRestartsPerFailure}, …) make it misbehave, so
 * that a fault's proof can be shown to refuse what it must not accept. {@link #runningWithBroker()}
 * puts a {@link SimulatedBroker} between source and job. It holds no rows: the row readers of
 * {@link TableAccess} throw {@link UnsupportedOperationException}. Close it to stop the tick.
 */
@API(status = EXPERIMENTAL)
public final class SimulatedPipeline
    implements PipelineUnderTest, JobControl, TaskManagerControl, FaultPoints, TableAccess {

  /** The current (upsert) table. */
  public static final String CURRENT = "orders_current";

  /** The changelog (append) table. */
  public static final String CHANGELOG = "orders_changelog";

  /** Events the job processes per tick. */
  public static final int EVENTS_PER_TICK = 5;

  /** Ticks from one checkpoint to the next. */
  public static final int TICKS_PER_CHECKPOINT = 4;

  /** Ticks after which a stalled checkpoint expires. */
  public static final int CHECKPOINT_TIMEOUT_TICKS = 8;

  /** Ticks a restart takes. */
  public static final int RESTART_TICKS = 3;

  /** Every capability of the direct path: what {@link #running()} offers. */
  public static final Set<Class<? extends PipelineCapability>> DIRECT_CAPABILITIES =
      Set.of(
          JobControl.class,
          TaskManagerControl.class,
          SavepointControl.class,
          FaultPoints.class,
          TableAccess.class);

  /** Every fault point: what {@link #running()} offers. */
  public static final Set<String> ALL_FAULT_POINTS =
      Set.of(
          "source-enumerator",
          "operator",
          "checkpoint-storage",
          "sink-commit",
          "sink-commit-current");

  private static final Set<String> ACTIONS =
      Set.of(
          "throw",
          "stall",
          "fail-commit-before-swap",
          "fail-commit-after-swap",
          "commit-state-unknown");

  private final Set<Class<? extends PipelineCapability>> capabilities;
  private final Set<String> points;
  private final @Nullable SimulatedBroker broker;
  private final JobSimulation job;
  private final SimulatedSavepoints savepoints;
  private final ScheduledExecutorService ticker;

  private SimulatedPipeline(
      Set<Class<? extends PipelineCapability>> capabilities, Set<String> points, boolean withBroker)
      throws IOException {
    this.broker = withBroker ? new SimulatedBroker(this) : null;
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(capabilities);
    if (withBroker) {
      offered.addAll(SimulatedBroker.capabilities());
    }
    this.capabilities = Set.copyOf(offered);
    this.points = Set.copyOf(points);
    this.job = new JobSimulation(Files.createTempDirectory("srl-sim-"), broker);
    this.savepoints = new SimulatedSavepoints(this, job);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "simulated-pipeline");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** A running pipeline with every capability of the direct path and every fault point. */
  public static SimulatedPipeline running() {
    return running(DIRECT_CAPABILITIES, ALL_FAULT_POINTS);
  }

  /**
   * A running pipeline with a broker between source and job: every capability of {@link #running()}
   * plus the {@link SimulatedBroker}'s, whose knobs {@link #broker()} reaches.
   */
  public static SimulatedPipeline runningWithBroker() {
    return start(DIRECT_CAPABILITIES, ALL_FAULT_POINTS, true);
  }

  /**
   * A running pipeline that offers only {@code capabilities} (of {@link #DIRECT_CAPABILITIES}) and
   * only the fault points {@code points}: to show a fault skipped where it cannot fire.
   */
  public static SimulatedPipeline running(
      Set<Class<? extends PipelineCapability>> capabilities, Set<String> points) {
    return start(capabilities, points, false);
  }

  private static SimulatedPipeline start(
      Set<Class<? extends PipelineCapability>> capabilities,
      Set<String> points,
      boolean withBroker) {
    Objects.requireNonNull(capabilities, "capabilities");
    Objects.requireNonNull(points, "points");
    try {
      SimulatedPipeline pipeline = new SimulatedPipeline(capabilities, points, withBroker);
      pipeline.ticker.scheduleWithFixedDelay(pipeline::tick, 2, 2, TimeUnit.MILLISECONDS);
      return pipeline;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // misbehaviour knobs

  /** Every failure costs this many restarts more than one. */
  public synchronized SimulatedPipeline extraRestartsPerFailure(long extra) {
    job.extraRestartsPerFailure = extra;
    return this;
  }

  /** Failures reach the exception history without the fault id. */
  public synchronized SimulatedPipeline hideFaultIds() {
    job.hideFaultIds = true;
    return this;
  }

  /** A failed checkpoint restarts the job, as with a tolerable failure number of 0. */
  public synchronized SimulatedPipeline restartOnCheckpointFailure() {
    job.restartOnCheckpointFailure = true;
    return this;
  }

  /** After the first failure the job keeps running and checkpointing but never commits again. */
  public synchronized SimulatedPipeline commitsStopAfterFailure() {
    job.commitsStopAfterFailure = true;
    return this;
  }

  /** The pipeline offers SavepointControl but cannot lose its cluster (the SPI's default). */
  public synchronized SimulatedPipeline cannotLoseCluster() {
    job.cannotLoseCluster = true;
    return this;
  }

  /** The pipeline offers SavepointControl without a savepoint that leaves the job running. */
  public synchronized SimulatedPipeline cannotSavepointWhileRunning() {
    job.cannotSavepointWhileRunning = true;
    return this;
  }

  /** Sets an entry of the {@link #effectiveConfiguration()}. */
  public synchronized void configure(String key, String value) {
    job.configuration.put(key, value);
  }

  /** Fails the job as the broker path's job would (a poison record, say): one restart. */
  public synchronized void failJob(String message) {
    job.failWith(message, "kafka-source", false);
  }

  // what a test looks at

  /** How many events the skipped commits of a same-job-id restore dropped. */
  public synchronized long lostEvents() {
    return job.lostEvents;
  }

  /** The broker path, for its knobs; only on a pipeline from {@link #runningWithBroker()}. */
  public SimulatedBroker broker() {
    if (broker == null) {
      throw new IllegalStateException("this simulated pipeline has no broker: runningWithBroker()");
    }
    return broker;
  }

  /** Whether {@link SavepointControl#loseCluster()} was called and no job was restored since. */
  public synchronized boolean clusterLost() {
    return job.clusterLost;
  }

  /** How many events the job processed so far. */
  public synchronized long eventCount() {
    return job.events;
  }

  /** The fault ids armed now: a healed fault leaves none behind. */
  public synchronized Set<String> armedIds() {
    return new LinkedHashSet<>(job.armed.keySet());
  }

  // the simulation

  private synchronized void tick() {
    try {
      job.tick();
    } finally {
      notifyAll();
    }
  }

  // PipelineUnderTest

  /** {@code simulated}. */
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
    return capabilities;
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (!capabilities.contains(type)) {
      return Optional.empty();
    }
    if (broker != null) {
      Optional<T> offered = broker.capability(type);
      if (offered.isPresent()) {
        return offered;
      }
    }
    if (type == SavepointControl.class) {
      return Optional.of(type.cast(savepoints));
    }
    return Optional.of(type.cast(this));
  }

  @Override
  public synchronized Map<String, String> effectiveConfiguration() {
    return Map.copyOf(job.configuration);
  }

  @Override
  public Map<String, String> stackVersions() {
    return Map.of("simulation", "1");
  }

  /** Stops the tick. */
  @Override
  public void close() {
    ticker.shutdownNow();
  }

  // JobControl

  @Override
  public synchronized String jobId() {
    return job.jobId;
  }

  @Override
  public synchronized JobState state() {
    return job.state;
  }

  @Override
  public synchronized long restartCount() {
    return job.restarts;
  }

  @Override
  public synchronized List<JobFailure> exceptionHistory() {
    return List.copyOf(job.history);
  }

  @Override
  public synchronized List<CheckpointInfo> checkpoints() {
    return List.copyOf(job.checkpoints);
  }

  @Override
  public synchronized void awaitRunning(Duration timeout)
      throws TimeoutException, InterruptedException {
    awaitCondition(() -> job.state == JobState.RUNNING, timeout, "the job running");
  }

  @Override
  public synchronized CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    awaitCondition(
        () -> job.completedAfter(after).isPresent(),
        timeout,
        "a checkpoint completed after " + after);
    return job.completedAfter(after).orElseThrow();
  }

  private void awaitCondition(BooleanSupplier condition, Duration timeout, String what)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new TimeoutException(
            "no " + what + " within " + timeout + " (state " + job.state + ")");
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  // TaskManagerControl

  @Override
  public synchronized List<String> taskManagers() {
    return List.copyOf(job.taskManagers);
  }

  /** The TaskManager is gone: the job fails and restarts once a replacement is started. */
  @Override
  public synchronized void terminate(String taskManagerId) {
    job.loseTaskManager(taskManagerId);
    notifyAll();
  }

  @Override
  public synchronized String startReplacement() {
    String id = "tm-" + ++job.taskManagerCount;
    job.taskManagers.add(id);
    return id;
  }

  // FaultPoints

  @Override
  public Set<String> available() {
    return points;
  }

  @Override
  public synchronized void arm(
      String point, FaultPosition position, String action, String faultId) {
    if (!points.contains(point)) {
      throw new IllegalArgumentException("no fault point " + point);
    }
    if (!ACTIONS.contains(action)) {
      throw new IllegalArgumentException("unknown action " + action);
    }
    if (job.armed.containsKey(faultId)) {
      throw new IllegalStateException(faultId + " is armed already");
    }
    job.armed.put(faultId, new JobSimulation.Arming(point, position, action));
  }

  @Override
  public synchronized void disarm(String faultId) {
    job.armed.remove(faultId);
  }

  @Override
  public synchronized Optional<Instant> firedAt(String faultId) {
    return Optional.ofNullable(job.fired.get(faultId));
  }

  // TableAccess

  /** Not available: the simulation holds no rows. */
  @Override
  public RowSet source() {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

  @Override
  public synchronized List<SnapshotInfo> snapshots(String table) {
    List<SnapshotInfo> found = job.snapshots.get(table);
    if (found == null) {
      throw new IllegalArgumentException("no table " + table);
    }
    return List.copyOf(found);
  }

  /** Not available: the simulation holds no rows. */
  @Override
  public RowSet current(long snapshotId) {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

  /** Not available: the simulation holds no rows. */
  @Override
  public Changelog changelog(long snapshotId) {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

  /** With a broker, whether an event reached the changelog; without, no rows to look in. */
  @Override
  public boolean changelogContains(long snapshotId, long eventId) {
    if (broker == null) {
      throw new UnsupportedOperationException("the simulation holds no rows");
    }
    return broker.changelogContains(snapshotId, eventId);
  }

  /** Not available: the simulation holds no rows. */
  @Override
  public Changelog changelogAppended(
      @Nullable Long fromSnapshotExclusive, long toSnapshotInclusive) {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

  @Override
  public String currentTable() {
    return CURRENT;
  }

  @Override
  public String changelogTable() {
    return CHANGELOG;
  }
}
