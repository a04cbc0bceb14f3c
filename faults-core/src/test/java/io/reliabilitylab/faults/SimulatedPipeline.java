package io.reliabilitylab.faults;

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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory streaming job for the faults' tests that really fails when a fault point fires: a
 * background tick processes events, takes a checkpoint every few ticks, commits each completed
 * checkpoint as a snapshot of both tables, and records restarts, exception history, checkpoint
 * failures and TaskManager losses the way an engine would. Knobs make it misbehave, so the proof
 * logic can be shown to refuse what it must not accept. {@link #runningWithBroker()} puts a {@link
 * SimulatedBroker} between source and job.
 */
final class SimulatedPipeline
    implements PipelineUnderTest,
        JobControl,
        TaskManagerControl,
        SavepointControl,
        FaultPoints,
        TableAccess {

  static final String CURRENT = "orders_current";
  static final String CHANGELOG = "orders_changelog";
  static final int EVENTS_PER_TICK = 5;
  static final int TICKS_PER_CHECKPOINT = 4;
  static final int CHECKPOINT_TIMEOUT_TICKS = 8;
  static final int RESTART_TICKS = 3;

  private record Arming(String point, FaultPosition position, String action) {}

  private final Set<Class<? extends PipelineCapability>> capabilities;
  private final Set<String> points;
  private final @Nullable SimulatedBroker broker;
  private final Path directory;
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private final ScheduledExecutorService ticker;

  private final Map<String, Arming> armed = new LinkedHashMap<>();
  private final Map<String, Instant> fired = new HashMap<>();
  private final List<JobFailure> history = new ArrayList<>();
  private final List<CheckpointInfo> checkpoints = new ArrayList<>();
  private final Map<String, List<SnapshotInfo>> snapshots = new HashMap<>();
  private final List<String> taskManagers = new ArrayList<>(List.of("tm-1"));
  private final TreeSet<Long> pendingCommits = new TreeSet<>();
  // checkpoints the committer took that then failed: committed with the next completed one
  private final TreeSet<Long> heldCommits = new TreeSet<>();

  private String jobId = "job-1";
  private int jobs = 1;
  private int taskManagerCount = 1;
  private JobState state = JobState.RUNNING;
  private long restarts;
  private long events;
  private long ticks;
  private long checkpointCounter;
  private long snapshotCounter;
  private int restartTicksLeft;
  private @Nullable CheckpointInfo inFlight;
  private long inFlightSince;
  private boolean inFlightStalled;

  // misbehaviour
  private long extraRestartsPerFailure;
  private boolean hideFaultIds;
  private boolean restartOnCheckpointFailure;
  private boolean commitsStopAfterFailure;
  private boolean failed;
  private boolean cannotLoseCluster;
  private boolean cannotSavepointWhileRunning;
  // what Iceberg's committer does after a restore under the same job id: checkpoints up to the
  // job's max committed id are "already committed", their files stay pending and a restore drops
  // them
  private long skipCommitsUpTo = -1;
  private long lostEvents;
  private boolean clusterLost;

  private SimulatedPipeline(
      Set<Class<? extends PipelineCapability>> capabilities,
      Set<String> points,
      Path directory,
      boolean withBroker) {
    this.broker = withBroker ? new SimulatedBroker(this) : null;
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(capabilities);
    if (withBroker) {
      offered.addAll(SimulatedBroker.capabilities());
    }
    this.capabilities = Set.copyOf(offered);
    this.points = Set.copyOf(points);
    this.directory = directory;
    configuration.put("flink.cluster", "embedded MiniCluster (simulated)");
    configuration.put("parallelism.default", "1");
    configuration.put("taskmanager.numberOfTaskSlots", "2");
    configuration.put("execution.checkpointing.timeout", CHECKPOINT_TIMEOUT_TICKS + " ticks");
    configuration.put("execution.checkpointing.tolerable-failed-checkpoints", "3");
    snapshots.put(CURRENT, new ArrayList<>());
    snapshots.put(CHANGELOG, new ArrayList<>());
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "simulated-pipeline");
              thread.setDaemon(true);
              return thread;
            });
  }

  private static final Set<Class<? extends PipelineCapability>> DIRECT =
      Set.of(
          JobControl.class,
          TaskManagerControl.class,
          SavepointControl.class,
          FaultPoints.class,
          TableAccess.class);
  private static final Set<String> ALL_POINTS =
      Set.of(
          "source-enumerator",
          "operator",
          "checkpoint-storage",
          "sink-commit",
          "sink-commit-current");

  /** A running pipeline with every capability of the direct path and every fault point. */
  static SimulatedPipeline running() {
    return running(DIRECT, ALL_POINTS);
  }

  /**
   * A running pipeline with a broker between source and job: every capability of {@link #running()}
   * plus the {@link SimulatedBroker}'s, whose knobs {@link #broker()} reaches.
   */
  static SimulatedPipeline runningWithBroker() {
    return start(DIRECT, ALL_POINTS, true);
  }

  static SimulatedPipeline running(
      Set<Class<? extends PipelineCapability>> capabilities, Set<String> points) {
    return start(capabilities, points, false);
  }

  private static SimulatedPipeline start(
      Set<Class<? extends PipelineCapability>> capabilities,
      Set<String> points,
      boolean withBroker) {
    try {
      SimulatedPipeline pipeline =
          new SimulatedPipeline(
              capabilities, points, Files.createTempDirectory("srl-sim-"), withBroker);
      pipeline.ticker.scheduleWithFixedDelay(pipeline::tick, 2, 2, TimeUnit.MILLISECONDS);
      return pipeline;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // misbehaviour knobs

  /** Every failure costs this many restarts more than one. */
  synchronized SimulatedPipeline extraRestartsPerFailure(long extra) {
    this.extraRestartsPerFailure = extra;
    return this;
  }

  /** Failures reach the exception history without the fault id. */
  synchronized SimulatedPipeline hideFaultIds() {
    this.hideFaultIds = true;
    return this;
  }

  /** A failed checkpoint restarts the job, as with a tolerable failure number of 0. */
  synchronized SimulatedPipeline restartOnCheckpointFailure() {
    this.restartOnCheckpointFailure = true;
    return this;
  }

  /** After the first failure the job keeps running and checkpointing but never commits again. */
  synchronized SimulatedPipeline commitsStopAfterFailure() {
    this.commitsStopAfterFailure = true;
    return this;
  }

  /** The pipeline offers SavepointControl but cannot lose its cluster (the SPI's default). */
  synchronized SimulatedPipeline cannotLoseCluster() {
    this.cannotLoseCluster = true;
    return this;
  }

  /** The pipeline offers SavepointControl without a savepoint that leaves the job running. */
  synchronized SimulatedPipeline cannotSavepointWhileRunning() {
    this.cannotSavepointWhileRunning = true;
    return this;
  }

  /** How many events the skipped commits of a same-job-id restore dropped. */
  synchronized long lostEvents() {
    return lostEvents;
  }

  synchronized void configure(String key, String value) {
    configuration.put(key, value);
  }

  /** The broker path, for its knobs; only on a pipeline from {@link #runningWithBroker()}. */
  SimulatedBroker broker() {
    if (broker == null) {
      throw new IllegalStateException("this simulated pipeline has no broker: runningWithBroker()");
    }
    return broker;
  }

  /** Fails the job as the broker path's job would (a poison record, say): one restart. */
  synchronized void failJob(String message) {
    failWith(message, "kafka-source", false);
  }

  // the simulation

  private synchronized void tick() {
    ticks++;
    try {
      if (broker != null) {
        broker.publishTick(); // the connector publishes whatever the job does
      }
      if (state == JobState.RESTARTING) {
        if (--restartTicksLeft <= 0 && !taskManagers.isEmpty()) {
          state = JobState.RUNNING;
        }
        return;
      }
      if (state != JobState.RUNNING) {
        return;
      }
      if (broker != null) {
        broker.consumeTick();
        if (state != JobState.RUNNING) {
          return; // the job failed on what it read
        }
      }
      events += EVENTS_PER_TICK;
      for (Map.Entry<String, Arming> entry : List.copyOf(armed.entrySet())) {
        Arming arming = entry.getValue();
        FaultPosition position = arming.position();
        boolean reached =
            position instanceof FaultPosition.Now
                || position instanceof FaultPosition.AfterEvent after && events >= after.events()
                || position instanceof FaultPosition.SnapshotPhase phase && events >= phase.rows();
        boolean onRecords =
            arming.point().equals("operator") || arming.point().equals("source-enumerator");
        if (reached && onRecords && "stall".equals(arming.action())) {
          // an element held at a position: the simulation records it and moves on
          fire(entry.getKey());
          armed.remove(entry.getKey());
          continue;
        }
        if (reached && onRecords && "throw".equals(arming.action())) {
          fire(entry.getKey());
          fail(entry.getKey(), arming, arming.point().equals("source-enumerator"));
          return;
        }
      }
      progressCheckpoint();
      if (state == JobState.RUNNING) {
        commitPending();
      }
    } finally {
      notifyAll();
    }
  }

  private void progressCheckpoint() {
    CheckpointInfo current = inFlight;
    if (current != null) {
      if (!inFlightStalled) {
        finishCheckpoint(current, "COMPLETED", null);
        pendingCommits.addAll(heldCommits);
        heldCommits.clear();
        pendingCommits.add(current.id());
      } else if (ticks - inFlightSince >= CHECKPOINT_TIMEOUT_TICKS) {
        finishCheckpoint(current, "FAILED", "Checkpoint expired before completing.");
        // the committer took the checkpoint before it expired: it stays pending, never notified
        heldCommits.add(current.id());
        if (restartOnCheckpointFailure) {
          failWith("Exceeded checkpoint tolerable failure threshold.", null, false);
        }
      }
      return;
    }
    if (ticks % TICKS_PER_CHECKPOINT != 0) {
      return;
    }
    long id = ++checkpointCounter;
    CheckpointInfo started =
        new CheckpointInfo(id, "IN_PROGRESS", Instant.now(), null, null, null, null, false);
    checkpoints.add(started);
    for (Map.Entry<String, Arming> entry : List.copyOf(armed.entrySet())) {
      Arming arming = entry.getValue();
      boolean reached =
          arming.position() instanceof FaultPosition.Now
              || arming.position() instanceof FaultPosition.AtCheckpoint at
                  && id >= at.checkpoint();
      if (!reached) {
        continue;
      }
      switch (arming.point()) {
        case "operator", "source-enumerator" -> {
          fire(entry.getKey());
          if ("stall".equals(arming.action())) {
            // a stalled synchronous part: the checkpoint hangs until it expires
            armed.remove(entry.getKey());
            inFlight = started;
            inFlightSince = ticks;
            inFlightStalled = true;
            return;
          }
          finishCheckpoint(
              started, "FAILED", "Task local checkpoint failure." + " (" + entry.getKey() + ")");
          fail(entry.getKey(), arming, arming.point().equals("source-enumerator"));
          return;
        }
        case "checkpoint-storage" -> {
          fire(entry.getKey());
          if ("stall".equals(arming.action())) {
            armed.remove(entry.getKey()); // a stall fires once, like the engine's
            inFlight = started;
            inFlightSince = ticks;
            inFlightStalled = true;
            return;
          }
          armed.remove(entry.getKey());
          finishCheckpoint(started, "FAILED", "Asynchronous task checkpoint failed.");
          // the committer took the checkpoint before it failed: it stays pending, never notified
          heldCommits.add(id);
          if (restartOnCheckpointFailure) {
            failWith(
                "Exceeded checkpoint tolerable failure threshold. " + entry.getKey(), null, false);
          }
          return;
        }
        default -> {
          // commit points act when the checkpoint is committed
        }
      }
    }
    inFlight = started;
    inFlightSince = ticks;
    inFlightStalled = false;
  }

  private void finishCheckpoint(CheckpointInfo started, String status, @Nullable String reason) {
    CheckpointInfo finished =
        new CheckpointInfo(
            started.id(),
            status,
            started.triggeredAt(),
            Instant.now(),
            "COMPLETED".equals(status) ? directory.resolve("chk-" + started.id()).toString() : null,
            reason,
            null,
            started.savepoint());
    checkpoints.set(checkpoints.indexOf(started), finished);
    if (finished.externalPath() != null) {
      try {
        Files.createDirectories(Path.of(finished.externalPath()));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    if (started == inFlight) {
      inFlight = null;
    }
  }

  private void commitPending() {
    if (commitsStopAfterFailure && failed) {
      return;
    }
    while (!pendingCommits.isEmpty()) {
      long id = pendingCommits.first();
      for (Map.Entry<String, Arming> entry : List.copyOf(armed.entrySet())) {
        Arming arming = entry.getValue();
        if (arming.point().startsWith("sink-commit")
            && arming.position() instanceof FaultPosition.AroundCommit around
            && id >= around.checkpoint()) {
          fire(entry.getKey());
          if (around.afterSwap()) {
            commit(id);
            pendingCommits.remove(id);
          }
          fail(entry.getKey(), arming, false);
          return;
        }
      }
      pendingCommits.remove(id);
      if (id <= skipCommitsUpTo) {
        skipped.add(id);
        continue;
      }
      skipped.clear();
      commit(id);
    }
  }

  // checkpoints whose commits were skipped, pending in the committer's state
  private final TreeSet<Long> skipped = new TreeSet<>();

  private void commit(long checkpoint) {
    Instant at = Instant.now();
    for (String table : List.of(CURRENT, CHANGELOG)) {
      snapshots
          .get(table)
          .add(
              new SnapshotInfo(
                  table,
                  ++snapshotCounter,
                  at,
                  table.equals(CURRENT) ? "overwrite" : "append",
                  jobId,
                  checkpoint));
    }
    if (broker != null) {
      broker.committed(snapshotCounter); // the changelog's snapshot, committed last
    }
  }

  private void fire(String faultId) {
    fired.putIfAbsent(faultId, Instant.now());
  }

  private void fail(String faultId, Arming arming, boolean global) {
    armed.remove(faultId);
    failWith(
        faultId
            + ": fault injected at point '"
            + arming.point()
            + "' ("
            + arming.action()
            + " at "
            + arming.position().text()
            + ")",
        arming.point(),
        global);
  }

  private void failWith(String message, @Nullable String task, boolean global) {
    String shown =
        hideFaultIds ? message.replaceAll("srl-fault-[0-9]+-[a-z0-9-]+", "<id>") : message;
    history.add(
        new JobFailure(
            Instant.now(),
            "io.reliabilitylab.InjectedFaultException",
            shown,
            task,
            taskManagers.isEmpty() ? null : taskManagers.get(0),
            global));
    restarts += 1 + extraRestartsPerFailure;
    failed = true;
    if (broker != null) {
      broker.jobRestarted();
    }
    if (!skipped.isEmpty()) {
      // the restore keeps pending files above the max committed id only: the skipped ones go
      lostEvents += (long) skipped.size() * TICKS_PER_CHECKPOINT * EVENTS_PER_TICK;
      skipped.clear();
    }
    state = JobState.RESTARTING;
    restartTicksLeft = RESTART_TICKS;
    CheckpointInfo current = inFlight;
    if (current != null) {
      finishCheckpoint(current, "FAILED", "Task has failed.");
    }
  }

  // PipelineUnderTest

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
    return Optional.of(type.cast(this));
  }

  @Override
  public synchronized Map<String, String> effectiveConfiguration() {
    return Map.copyOf(configuration);
  }

  @Override
  public Map<String, String> stackVersions() {
    return Map.of("simulation", "1");
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }

  // JobControl

  @Override
  public synchronized String jobId() {
    return jobId;
  }

  @Override
  public synchronized JobState state() {
    return state;
  }

  @Override
  public synchronized long restartCount() {
    return restarts;
  }

  @Override
  public synchronized List<JobFailure> exceptionHistory() {
    return List.copyOf(history);
  }

  @Override
  public synchronized List<CheckpointInfo> checkpoints() {
    return List.copyOf(checkpoints);
  }

  @Override
  public synchronized void awaitRunning(Duration timeout)
      throws TimeoutException, InterruptedException {
    awaitCondition(() -> state == JobState.RUNNING, timeout, "the job running");
  }

  @Override
  public synchronized CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout)
      throws TimeoutException, InterruptedException {
    awaitCondition(
        () -> completedAfter(after).isPresent(), timeout, "a checkpoint completed after " + after);
    return completedAfter(after).orElseThrow();
  }

  private Optional<CheckpointInfo> completedAfter(Instant after) {
    return checkpoints.stream()
        .filter(c -> c.completed() && c.finishedAt() != null && c.finishedAt().isAfter(after))
        .findFirst();
  }

  private void awaitCondition(BooleanSupplier condition, Duration timeout, String what)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new TimeoutException("no " + what + " within " + timeout + " (state " + state + ")");
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  // TaskManagerControl

  @Override
  public synchronized List<String> taskManagers() {
    return List.copyOf(taskManagers);
  }

  @Override
  public synchronized void terminate(String taskManagerId) {
    if (!taskManagers.remove(taskManagerId)) {
      throw new IllegalArgumentException("no TaskManager " + taskManagerId);
    }
    history.add(
        new JobFailure(
            Instant.now(),
            "java.util.concurrent.TimeoutException",
            "TaskManager " + taskManagerId + " is no longer reachable",
            "operator",
            taskManagerId,
            false));
    restarts += 1 + extraRestartsPerFailure;
    state = JobState.RESTARTING;
    restartTicksLeft = RESTART_TICKS;
    CheckpointInfo current = inFlight;
    if (current != null) {
      finishCheckpoint(current, "FAILED", "Task has failed.");
    }
    notifyAll();
  }

  @Override
  public synchronized String startReplacement() {
    String id = "tm-" + ++taskManagerCount;
    taskManagers.add(id);
    return id;
  }

  // SavepointControl

  @Override
  public synchronized String stopWithSavepoint(Duration timeout) throws IOException {
    if (state != JobState.RUNNING) {
      throw new IllegalStateException("job " + jobId + " is " + state + ", not RUNNING");
    }
    long id = ++checkpointCounter;
    Path savepoint = Files.createDirectories(directory.resolve("savepoint-" + id));
    Instant at = Instant.now();
    checkpoints.add(
        new CheckpointInfo(id, "COMPLETED", at, at, savepoint.toString(), null, null, true));
    pendingCommits.add(id);
    commitPending();
    state = JobState.FINISHED;
    notifyAll();
    return savepoint.toString();
  }

  @Override
  public synchronized String restore(String path, int parallelism) {
    if (!Files.isDirectory(Path.of(path))) {
      throw new IllegalArgumentException("no savepoint at " + path);
    }
    jobId = "job-" + ++jobs;
    clusterLost = false;
    restarts = 0;
    history.clear();
    configuration.put("parallelism.default", Integer.toString(parallelism));
    state = JobState.RUNNING;
    notifyAll();
    return jobId;
  }

  @Override
  public synchronized String triggerSavepoint(Duration timeout) throws IOException {
    if (cannotSavepointWhileRunning) {
      throw new UnsupportedOperationException(
          "this simulated pipeline only stops with a savepoint");
    }
    if (state != JobState.RUNNING) {
      throw new IllegalStateException("job " + jobId + " is " + state + ", not RUNNING");
    }
    long id = ++checkpointCounter;
    Path savepoint = Files.createDirectories(directory.resolve("savepoint-" + id));
    Instant at = Instant.now();
    checkpoints.add(
        new CheckpointInfo(id, "COMPLETED", at, at, savepoint.toString(), null, null, true));
    pendingCommits.add(id);
    commitPending();
    notifyAll();
    return savepoint.toString();
  }

  @Override
  public synchronized String restoreKeepingJobId(String path, int parallelism) {
    if (!clusterLost) {
      throw new IllegalStateException("a job id can be reused only on a fresh cluster");
    }
    String name = Path.of(path).getFileName().toString();
    if (!Files.isDirectory(Path.of(path)) || !name.startsWith("savepoint-")) {
      throw new IllegalArgumentException("no savepoint at " + path);
    }
    long restoredId = Long.parseLong(name.substring("savepoint-".length()));
    skipCommitsUpTo =
        snapshots.get(CURRENT).stream()
            .filter(s -> jobId.equals(s.flinkJobId()) && s.committedCheckpointId() != null)
            .mapToLong(s -> s.committedCheckpointId() == null ? -1 : s.committedCheckpointId())
            .max()
            .orElse(-1);
    checkpointCounter = restoredId; // Flink numbers on from the restored checkpoint
    checkpoints.clear(); // a fresh cluster's history
    clusterLost = false;
    restarts = 0;
    history.clear();
    configuration.put("parallelism.default", Integer.toString(parallelism));
    state = JobState.RUNNING;
    notifyAll();
    return jobId;
  }

  @Override
  public synchronized void loseCluster() {
    if (cannotLoseCluster) {
      throw new UnsupportedOperationException("this simulated pipeline cannot lose its cluster");
    }
    clusterLost = true;
    state = JobState.FAILED;
    inFlight = null;
    pendingCommits.clear(); // what was not committed dies with the cluster; state has it
    notifyAll();
  }

  /** Whether {@link #loseCluster()} was called and no job was restored since. */
  synchronized boolean clusterLost() {
    return clusterLost;
  }

  @Override
  public synchronized String latestRetainedCheckpoint() {
    return checkpoints.stream()
        .filter(c -> c.completed() && !c.savepoint())
        .reduce((a, b) -> b)
        .map(CheckpointInfo::externalPath)
        .orElseThrow(() -> new IllegalStateException("no checkpoint retained yet"));
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
    Set<String> actions =
        new HashSet<>(
            Set.of(
                "throw",
                "stall",
                "fail-commit-before-swap",
                "fail-commit-after-swap",
                "commit-state-unknown"));
    if (!actions.contains(action)) {
      throw new IllegalArgumentException("unknown action " + action);
    }
    if (armed.containsKey(faultId)) {
      throw new IllegalStateException(faultId + " is armed already");
    }
    armed.put(faultId, new Arming(point, position, action));
  }

  @Override
  public synchronized void disarm(String faultId) {
    armed.remove(faultId);
  }

  @Override
  public synchronized Optional<Instant> firedAt(String faultId) {
    return Optional.ofNullable(fired.get(faultId));
  }

  /** How many events the job processed so far. */
  synchronized long eventCount() {
    return events;
  }

  /** The fault ids armed now. */
  synchronized Set<String> armedIds() {
    return new LinkedHashSet<>(armed.keySet());
  }

  // TableAccess

  @Override
  public RowSet source() {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

  @Override
  public synchronized List<SnapshotInfo> snapshots(String table) {
    List<SnapshotInfo> found = snapshots.get(table);
    if (found == null) {
      throw new IllegalArgumentException("no table " + table);
    }
    return List.copyOf(found);
  }

  @Override
  public RowSet current(long snapshotId) {
    throw new UnsupportedOperationException("the simulation holds no rows");
  }

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
