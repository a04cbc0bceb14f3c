package io.reliabilitylab.testkit.simulated;

import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.CHANGELOG;
import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.CHECKPOINT_TIMEOUT_TICKS;
import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.CURRENT;
import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.EVENTS_PER_TICK;
import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.RESTART_TICKS;
import static io.reliabilitylab.testkit.simulated.SimulatedPipeline.TICKS_PER_CHECKPOINT;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The state of a {@link SimulatedPipeline}'s job and what one tick does to it: process events, fire
 * armed fault points, take and finish checkpoints, commit completed ones, fail and restart. Every
 * field and method is used under the pipeline's monitor only.
 */
final class JobSimulation {

  /** One armed fault point. */
  record Arming(String point, FaultPosition position, String action) {}

  final Path directory;
  final @Nullable SimulatedBroker broker;
  final Map<String, String> configuration = new LinkedHashMap<>();
  final Map<String, Arming> armed = new LinkedHashMap<>();
  final Map<String, Instant> fired = new HashMap<>();
  final List<JobFailure> history = new ArrayList<>();
  final List<CheckpointInfo> checkpoints = new ArrayList<>();
  final Map<String, List<SnapshotInfo>> snapshots = new HashMap<>();
  final List<String> taskManagers = new ArrayList<>(List.of("tm-1"));
  final TreeSet<Long> pendingCommits = new TreeSet<>();
  // checkpoints the committer took that then failed: committed with the next completed one
  final TreeSet<Long> heldCommits = new TreeSet<>();
  // checkpoints whose commits were skipped, pending in the committer's state
  final TreeSet<Long> skipped = new TreeSet<>();

  String jobId = "job-1";
  int jobs = 1;
  int taskManagerCount = 1;
  JobState state = JobState.RUNNING;
  long restarts;
  long events;
  long ticks;
  long checkpointCounter;
  long snapshotCounter;
  int restartTicksLeft;
  @Nullable CheckpointInfo inFlight;
  long inFlightSince;
  boolean inFlightStalled;

  // misbehaviour
  long extraRestartsPerFailure;
  boolean hideFaultIds;
  boolean restartOnCheckpointFailure;
  boolean commitsStopAfterFailure;
  boolean failed;
  boolean cannotLoseCluster;
  boolean cannotSavepointWhileRunning;
  // what Iceberg's committer does after a restore under the same job id: checkpoints up to the
  // job's max committed id are "already committed", their files stay pending and a restore drops
  // them
  long skipCommitsUpTo = -1;
  long lostEvents;
  boolean clusterLost;

  JobSimulation(Path directory, @Nullable SimulatedBroker broker) {
    this.directory = directory;
    this.broker = broker;
    configuration.put("flink.cluster", "embedded MiniCluster (simulated)");
    configuration.put("parallelism.default", "1");
    configuration.put("taskmanager.numberOfTaskSlots", "2");
    configuration.put("execution.checkpointing.timeout", CHECKPOINT_TIMEOUT_TICKS + " ticks");
    configuration.put("execution.checkpointing.tolerable-failed-checkpoints", "3");
    snapshots.put(CURRENT, new ArrayList<>());
    snapshots.put(CHANGELOG, new ArrayList<>());
  }

  /** One step of the job: the broker publishes, the job restarts or processes and checkpoints. */
  void tick() {
    ticks++;
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

  void finishCheckpoint(CheckpointInfo started, String status, @Nullable String reason) {
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

  void commitPending() {
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

  void failWith(String message, @Nullable String task, boolean global) {
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
    restart();
  }

  /** A TaskManager is gone: its tasks fail, the job restarts once one is back. */
  void loseTaskManager(String taskManagerId) {
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
    restart();
  }

  private void restart() {
    state = JobState.RESTARTING;
    restartTicksLeft = RESTART_TICKS;
    CheckpointInfo current = inFlight;
    if (current != null) {
      finishCheckpoint(current, "FAILED", "Task has failed.");
    }
  }

  Optional<CheckpointInfo> completedAfter(Instant after) {
    return checkpoints.stream()
        .filter(c -> c.completed() && c.finishedAt() != null && c.finishedAt().isAfter(after))
        .findFirst();
  }
}
