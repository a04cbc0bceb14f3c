package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.examples.customfault.BinlogConnections.BinlogPosition;
import io.reliabilitylab.examples.customfault.BinlogConnections.DumpThread;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One injection of {@code source-connection-loss}: a worker thread waits for the position and for
 * the connector's binlog connection, kills it and proves it is gone; {@link #awaitRecovery} proves
 * the connector came back and the sink commits again.
 */
final class SourceConnectionLoss implements FaultHandle {

  /** How often the process list, the checkpoints and the snapshots are looked at. */
  private static final Duration POLL = Duration.ofMillis(50);

  private final FaultSpec spec;
  private final Clock clock;
  private final Duration timeout;
  private final SourceEndpoint endpoint;
  private final BinlogConnections connections;
  private final JobControl job;
  private final TableAccess tables;
  private final Instant injectedAt;
  private final String jobIdBefore;
  private final long restartsBefore;
  private final long latestCheckpointBefore;
  private final CompletableFuture<FaultEvidence> outcome = new CompletableFuture<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread worker;
  private volatile FaultEvidence evidence;
  private volatile List<Long> killed = List.of();

  private SourceConnectionLoss(
      FaultContext context, SourceEndpoint endpoint, JobControl job, TableAccess tables) {
    this.spec = context.spec();
    this.clock = context.clock();
    this.timeout = context.timeout();
    this.endpoint = endpoint;
    this.connections = new BinlogConnections(endpoint);
    this.job = job;
    this.tables = tables;
    this.injectedAt = clock.instant();
    this.jobIdBefore = job.jobId();
    this.restartsBefore = job.restartCount();
    this.latestCheckpointBefore = latestCompletedCheckpoint();
    this.evidence =
        new FaultEvidence(
            spec.id(),
            spec.fault(),
            FaultStatus.ARMED,
            injectedAt,
            null,
            "armed: kill the binlog connection of '"
                + endpoint.user()
                + "' at "
                + spec.position().text(),
            baseDetails(),
            List.of(),
            "");
    this.worker = new Thread(this::injectAtPosition, "srl-" + spec.id());
    worker.setDaemon(true);
  }

  /** Starts the injection in the background and returns at once. */
  static SourceConnectionLoss start(
      FaultContext context, SourceEndpoint endpoint, JobControl job, TableAccess tables) {
    SourceConnectionLoss loss = new SourceConnectionLoss(context, endpoint, job, tables);
    loss.worker.start();
    return loss;
  }

  @Override
  public FaultEvidence evidence() {
    return evidence;
  }

  @Override
  public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
    try {
      return outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException stillArmed) {
      return evidence;
    } catch (ExecutionException impossible) {
      // the worker completes the outcome normally in every case
      throw new IllegalStateException(impossible);
    }
  }

  private void injectAtPosition() {
    Instant deadline = clock.instant().plus(timeout);
    Map<String, String> details = baseDetails();
    try {
      if (spec.position() instanceof FaultPosition.AtCheckpoint at) {
        CheckpointInfo reached = awaitCheckpoint(at.checkpoint(), deadline);
        details.put("fired_after_checkpoint", Long.toString(reached.id()));
      }
      List<DumpThread> threads = awaitDumpThreads(deadline);
      List<Long> ids = threads.stream().map(DumpThread::id).toList();
      // region kill
      BinlogConnections.Kill kill = connections.kill(ids);
      Instant killedAt = clock.instant();
      killed = ids;
      Instant goneAt = awaitGone(ids, deadline);
      // endregion
      DumpThread first = threads.get(0);
      details.put("killed_connection_id", Long.toString(first.id()));
      details.put("killed_connection_ids", join(ids));
      details.put("killed_connection_client", first.host());
      details.put("killed_connection_age_s", Long.toString(first.connectedSeconds()));
      details.put("killed_connection_state", first.state());
      details.put("killed_at", killedAt.toString());
      details.put("gone_at", goneAt.toString());
      Optional<BinlogPosition> binlog = kill.after();
      details.put(
          "binlog_position_before_kill",
          kill.before().map(BinlogPosition::toString).orElse("unavailable"));
      details.put("binlog_position", binlog.map(BinlogPosition::toString).orElse("unavailable"));
      binlog.ifPresent(
          position -> {
            details.put("binlog_file", position.file());
            details.put("binlog_offset", Long.toString(position.position()));
          });
      List<String> proofs = new ArrayList<>();
      proofs.add(
          "KILL CONNECTION "
              + join(ids)
              + " succeeded at "
              + killedAt
              + ": the Binlog Dump connection of '"
              + first.user()
              + "' from "
              + first.host()
              + ", streaming for "
              + first.connectedSeconds()
              + " s"
              + binlog
                  .map(p -> "; the server's binlog ended at " + p + " right after the kill")
                  .orElse(""));
      proofs.add(
          "connection "
              + join(ids)
              + " no longer in information_schema.PROCESSLIST at "
              + goneAt
              + " ("
              + Duration.between(killedAt, goneAt).toMillis()
              + " ms after the kill)");
      evidence =
          new FaultEvidence(
              spec.id(),
              spec.fault(),
              FaultStatus.FIRED,
              injectedAt,
              killedAt,
              "killed the CDC connector's binlog connection on the source database ("
                  + endpoint.jdbcUrl()
                  + ")",
              details,
              proofs,
              "");
    } catch (InterruptedException e) {
      evidence = notProven(details, "closed before it fired");
    } catch (TimeoutException e) {
      evidence = notProven(details, e.getMessage());
    } catch (Exception e) {
      evidence = notProven(details, "the source refused: " + Failures.oneLine(e));
    } finally {
      outcome.complete(evidence);
    }
  }

  // region recovery
  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout)
      throws TimeoutException, InterruptedException {
    FaultEvidence fired = awaitFired(timeout);
    Instant faultAt = fired.firedAt();
    if (!fired.fired() || faultAt == null) {
      throw new IllegalStateException(
          "Fault "
              + spec.id()
              + " did not fire ("
              + fired.status()
              + ": "
              + fired.reason()
              + "), so there is no recovery to await");
    }
    Instant deadline = clock.instant().plus(timeout);
    List<String> progress = new ArrayList<>();
    try {
      // The connector's own reconnect (or the restarted job's new reader) opens a new dump.
      DumpThread reconnected = awaitNewDumpThread(deadline);
      Instant reconnectedAt = clock.instant();
      progress.add("binlog connection " + reconnected.id() + " opened");
      job.awaitRunning(remaining(deadline));
      Instant runningAt = clock.instant();
      progress.add("job running");
      CheckpointInfo checkpoint =
          job.awaitCompletedCheckpointAfter(reconnectedAt, remaining(deadline));
      progress.add("checkpoint " + checkpoint.id() + " completed");
      SnapshotInfo commit = awaitCommit(faultAt, checkpoint.id(), deadline);
      long restarts = job.restartCount() - restartsBefore;
      Map<String, String> details = new LinkedHashMap<>();
      details.put(
          "recovery_path",
          restarts == 0
              ? "the connector reconnected to the binlog without a job restart"
              : "the job restarted " + restarts + " time(s) and its source reconnected");
      details.put("reconnected_connection_id", Long.toString(reconnected.id()));
      details.put("reconnected_connection_client", reconnected.host());
      details.put("reconnected_at", reconnectedAt.toString());
      details.put(
          "reconnected_after_ms",
          Long.toString(Duration.between(faultAt, reconnectedAt).toMillis()));
      details.put("restart_count_after", Long.toString(job.restartCount()));
      details.put("job_id_after", job.jobId());
      details.put("first_commit_table", commit.table());
      if (commit.committedCheckpointId() != null) {
        details.put("first_commit_checkpoint_id", commit.committedCheckpointId().toString());
      }
      return new RecoveryEvidence(
          true,
          faultAt,
          runningAt,
          checkpoint.id(),
          checkpoint.finishedAt() != null ? checkpoint.finishedAt() : clock.instant(),
          commit.snapshotId(),
          commit.committedAt(),
          restarts,
          details);
    } catch (TimeoutException e) {
      throw new TimeoutException(
          "Pipeline did not recover from "
              + spec.id()
              + " within "
              + timeout
              + "; got as far as: "
              + (progress.isEmpty() ? "nothing (no new binlog connection)" : progress)
              + " ("
              + e.getMessage()
              + ")");
    }
  }

  // endregion

  /** Nothing to heal: the server cannot give back a killed connection; stops the worker. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true) && worker.isAlive()) {
      worker.interrupt();
    }
  }

  private CheckpointInfo awaitCheckpoint(long id, Instant deadline)
      throws TimeoutException, InterruptedException {
    while (true) {
      for (CheckpointInfo checkpoint : job.checkpoints()) {
        if (checkpoint.completed() && checkpoint.id() >= id) {
          return checkpoint;
        }
      }
      pause(deadline, () -> "checkpoint " + id + " did not complete");
    }
  }

  private List<DumpThread> awaitDumpThreads(Instant deadline) throws Exception {
    while (true) {
      List<DumpThread> threads = connections.dumpThreads();
      if (!threads.isEmpty()) {
        return threads;
      }
      pause(
          deadline,
          () -> "no binlog connection of '" + endpoint.user() + "' appeared on the source");
    }
  }

  private Instant awaitGone(List<Long> ids, Instant deadline) throws Exception {
    while (true) {
      boolean anyLeft = false;
      for (long id : ids) {
        anyLeft |= connections.present(id);
      }
      if (!anyLeft) {
        return clock.instant();
      }
      pause(deadline, () -> "connection " + join(ids) + " was still listed after KILL");
    }
  }

  private DumpThread awaitNewDumpThread(Instant deadline)
      throws TimeoutException, InterruptedException {
    while (true) {
      try {
        for (DumpThread thread : connections.dumpThreads()) {
          if (!killed.contains(thread.id())) {
            return thread;
          }
        }
      } catch (SQLException e) {
        // the source may be busy; the deadline decides
      }
      pause(deadline, () -> "no new binlog connection of '" + endpoint.user() + "' appeared");
    }
  }

  private SnapshotInfo awaitCommit(Instant faultAt, long checkpointId, Instant deadline)
      throws TimeoutException, InterruptedException {
    String lastFailure = "";
    while (true) {
      try {
        for (String table : List.of(tables.currentTable(), tables.changelogTable())) {
          for (SnapshotInfo snapshot : tables.snapshots(table)) {
            Long committed = snapshot.committedCheckpointId();
            if (snapshot.committedAt().isAfter(faultAt)
                && (committed == null || committed >= checkpointId)) {
              return snapshot;
            }
          }
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // a table read while a commit lands may fail; the deadline decides
        lastFailure = "; last read failed: " + Failures.oneLine(e);
      }
      String failure = lastFailure;
      pause(deadline, () -> "no sink commit after checkpoint " + checkpointId + failure);
    }
  }

  private void pause(Instant deadline, Supplier<String> reason)
      throws TimeoutException, InterruptedException {
    if (closed.get()) {
      throw new InterruptedException("closed");
    }
    if (!clock.instant().isBefore(deadline)) {
      throw new TimeoutException(reason.get() + " before the deadline");
    }
    Thread.sleep(POLL.toMillis());
  }

  private Duration remaining(Instant deadline) {
    Duration left = Duration.between(clock.instant(), deadline);
    return left.isNegative() ? Duration.ZERO : left;
  }

  private long latestCompletedCheckpoint() {
    return job.checkpoints().stream()
        .filter(CheckpointInfo::completed)
        .mapToLong(CheckpointInfo::id)
        .max()
        .orElse(0);
  }

  private Map<String, String> baseDetails() {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("source", endpoint.jdbcUrl());
    details.put("user", endpoint.user());
    details.put("position", spec.position().text());
    details.put("job_id", jobIdBefore);
    details.put("restart_count_before", Long.toString(restartsBefore));
    details.put("latest_checkpoint_before", Long.toString(latestCheckpointBefore));
    return details;
  }

  private FaultEvidence notProven(Map<String, String> details, @Nullable String reason) {
    return new FaultEvidence(
        spec.id(),
        spec.fault(),
        FaultStatus.NOT_PROVEN,
        injectedAt,
        null,
        "tried to kill the binlog connection of '" + endpoint.user() + "'",
        details,
        List.of(),
        reason == null || reason.isBlank() ? "unknown" : reason);
  }

  private static String join(List<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
