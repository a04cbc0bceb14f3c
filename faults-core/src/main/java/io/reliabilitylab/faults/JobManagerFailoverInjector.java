package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobManagerControl;
import io.reliabilitylab.spi.pipeline.JobManagerControl.JobManager;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code jobmanager-failover}: the leading JobManager's process is killed with SIGKILL; the standby
 * wins the ZooKeeper election and recovers the job from the HA storage; the killed process is then
 * started again and rejoins as the new standby. The kill waits (up to 10 s) until two checkpoints
 * taken while the scenario's writes flow have completed, so that the failover restores a job that
 * was committing changes.
 *
 * <p>Parameter: {@code rejoin} = {@code true} (default) or {@code false} (leave the killed
 * JobManager down; the cluster then has no standby for the rest of the run).
 *
 * <p>Proof: the old leader's process ended with exit status 137; another JobManager leads; the job
 * runs under the same job id (recovered, not resubmitted); and a checkpoint newer than the last one
 * before the kill completed after it — its id continues the old leader's count, which only the HA
 * storage carried over. The evidence holds the takeover times.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class JobManagerFailoverInjector extends BuiltInFault {

  /** The spec parameter saying whether the killed JobManager is started again as a standby. */
  public static final String REJOIN = "rejoin";

  /** What this fault does and does not show, recorded with its evidence. */
  public static final String CLAIM_BOUNDARY =
      "the leading JobManager JVM is killed with SIGKILL (no graceful leadership release: the"
          + " standby takes over once the old leader's ZooKeeper session expires); ZooKeeper, the"
          + " TaskManagers and the HA storage stay up; a ZooKeeper outage or lost HA storage is"
          + " not shown";

  private static final Duration POLL = Duration.ofMillis(100);

  /** How many checkpoints of the scenario's writes complete before the kill. */
  private static final int CHECKPOINTS_DURING_WRITES = 2;

  /** How long the kill waits for them; a job that takes none by then is killed anyway. */
  private static final Duration WRITES_WAIT = Duration.ofSeconds(10);

  @Override
  public String name() {
    return "jobmanager-failover";
  }

  @Override
  public String description() {
    return "Kills the leading JobManager with SIGKILL; the standby takes over through ZooKeeper and"
        + " recovers the job, and the killed one rejoins as the standby";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, JobManagerControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(REJOIN, "true (default) or false: start the killed JobManager again as standby");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    boolean rejoin = Boolean.parseBoolean(choice(spec, REJOIN, "true", Set.of("true", "false")));
    JobManagerControl control =
        context.pipeline().capability(JobManagerControl.class).orElseThrow();
    Optional<JobManager> leading = control.leader();
    if (leading.isEmpty()) {
      return skipped(
          context, "no JobManager of pipeline '" + context.pipeline().name() + "' leads");
    }
    JobManager old = leading.get();
    List<JobManager> standbys =
        control.jobManagers().stream().filter(jm -> jm.alive() && !jm.leader()).toList();
    if (standbys.isEmpty()) {
      return skipped(
          context,
          "pipeline '"
              + context.pipeline().name()
              + "' has no live standby JobManager to take over from "
              + old.id());
    }
    // the leader dies while the job commits the scenario's changes: the writes begin now, and the
    // kill waits for checkpoints taken while they flow (a failover on an idle job restores nothing)
    Instant writesFrom = context.clock().instant();
    context.signalArmed();
    List<CheckpointInfo> during = awaitCheckpointsDuringWrites(view, writesFrom);
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put(
        "checkpoints_during_writes_before_kill",
        String.join(",", during.stream().map(c -> Long.toString(c.id())).toList()));
    details.put("old_leader", old.id());
    details.put("old_leader_pid", Long.toString(old.pid()));
    details.put("old_leader_rest", old.restAddress());
    details.put("standbys", String.join(",", standbys.stream().map(JobManager::id).toList()));
    details.put("signal", "SIGKILL");
    details.put("claim_boundary", CLAIM_BOUNDARY);
    int exitStatus = control.kill(old.id());
    Instant killedAt = context.clock().instant();
    details.put("killed_at", killedAt.toString());
    details.put("exit_status", Integer.toString(exitStatus));
    Map<String, String> learnt = new ConcurrentHashMap<>();
    AtomicReference<@Nullable JobManager> successor = new AtomicReference<>();
    AtomicReference<@Nullable String> problem = new AtomicReference<>();
    Runnable followTakeover =
        () -> {
          long deadline = System.nanoTime() + context.timeout().toNanos();
          try {
            while (System.nanoTime() < deadline) {
              Optional<JobManager> now = control.leader();
              if (now.isPresent() && !now.get().id().equals(old.id())) {
                Instant at = context.clock().instant();
                learnt.put("new_leader", now.get().id());
                learnt.put("new_leader_pid", Long.toString(now.get().pid()));
                learnt.put("new_leader_at", at.toString());
                learnt.put("takeover_ms", Long.toString(Duration.between(killedAt, at).toMillis()));
                successor.set(now.get());
                break;
              }
              Thread.sleep(POLL.toMillis());
            }
            if (successor.get() == null) {
              problem.set("no other JobManager took the lead within " + context.timeout());
              return;
            }
            if (rejoin) {
              JobManager restarted = control.restart(old.id());
              learnt.put("rejoined_pid", Long.toString(restarted.pid()));
              learnt.put("rejoined_at", context.clock().instant().toString());
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            problem.set("following the takeover failed: " + e);
          }
        };
    Thread follower = new Thread(followTakeover, "srl-" + spec.id() + "-takeover");
    follower.setDaemon(true);
    follower.start();
    ProofRule proof = takeover(old, exitStatus, killedAt, successor, learnt, problem);
    return ProvenFault.builder(context, view, baseline)
        .what("SIGKILLed leading JobManager " + old.id() + " (pid " + old.pid() + ")")
        .details(details)
        .proof(proof)
        .recoveryDetails(recovered -> rejoin(follower, learnt, rejoin, context.timeout()))
        .healing(
            () -> {
              follower.interrupt();
              if (rejoin && !learnt.containsKey("rejoined_pid")) {
                boolean down =
                    control.jobManagers().stream()
                        .anyMatch(jm -> jm.id().equals(old.id()) && !jm.alive());
                if (down) {
                  control.restart(old.id());
                }
              }
            })
        .build();
  }

  /**
   * Waits until {@value #CHECKPOINTS_DURING_WRITES} checkpoints triggered after {@code writesFrom}
   * completed, up to {@link #WRITES_WAIT}; returns those that did.
   */
  private static List<CheckpointInfo> awaitCheckpointsDuringWrites(
      PipelineView view, Instant writesFrom) throws Exception {
    long deadline = System.nanoTime() + WRITES_WAIT.toNanos();
    while (true) {
      List<CheckpointInfo> completed =
          view.observe().checkpoints().stream()
              .filter(c -> !c.savepoint() && "COMPLETED".equals(c.status()))
              .filter(c -> c.triggeredAt().isAfter(writesFrom))
              .toList();
      if (completed.size() >= CHECKPOINTS_DURING_WRITES || System.nanoTime() - deadline > 0) {
        return completed;
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Whether the killed JobManager rejoined as a standby, once the pipeline recovered: its restart
   * (a JVM start) may still run when the takeover is proven, so this waits for the follower.
   */
  private static Map<String, String> rejoin(
      Thread follower, Map<String, String> learnt, boolean rejoin, Duration timeout)
      throws InterruptedException {
    if (!rejoin) {
      return Map.of("rejoined", "false: parameter rejoin=false");
    }
    follower.join(timeout.toMillis());
    Map<String, String> found = new LinkedHashMap<>();
    for (String key : List.of("rejoined_pid", "rejoined_at")) {
      if (learnt.containsKey(key)) {
        found.put(key, learnt.get(key));
      }
    }
    found.put("rejoined", Boolean.toString(found.containsKey("rejoined_pid")));
    return found;
  }

  private static ProofRule takeover(
      JobManager old,
      int exitStatus,
      Instant killedAt,
      AtomicReference<@Nullable JobManager> successor,
      Map<String, String> learnt,
      AtomicReference<@Nullable String> problem) {
    return (baseline, now) -> {
      if (exitStatus != 137) {
        return ProofVerdict.refuted(
            "JobManager "
                + old.id()
                + " (pid "
                + old.pid()
                + ") exited with status "
                + exitStatus
                + ", not 137 (killed by SIGKILL)");
      }
      String failed = problem.get();
      if (failed != null) {
        return ProofVerdict.refuted(failed);
      }
      JobManager leader = successor.get();
      if (leader == null) {
        return ProofVerdict.pending("no JobManager has taken the lead from " + old.id() + " yet");
      }
      if (!now.jobId().equals(baseline.jobId())) {
        return ProofVerdict.refuted(
            "the job id changed from "
                + baseline.jobId()
                + " to "
                + now.jobId()
                + ": the job was resubmitted, not recovered by the new leader");
      }
      if (now.state() != JobState.RUNNING) {
        return ProofVerdict.pending(
            "JobManager "
                + leader.id()
                + " leads; the job is "
                + now.state()
                + ", not running yet");
      }
      long lastBefore = baseline.latestCheckpointId();
      Optional<CheckpointInfo> after =
          now.checkpoints().stream()
              .filter(c -> c.completed() && !c.savepoint() && c.id() > lastBefore)
              .filter(c -> !c.triggeredAt().isBefore(killedAt))
              .findFirst();
      if (after.isEmpty()) {
        return ProofVerdict.pending(
            "the job runs under "
                + leader.id()
                + "; no checkpoint after "
                + lastBefore
                + " completed since the kill");
      }
      CheckpointInfo first = after.get();
      List<String> proofs = new ArrayList<>();
      proofs.add(
          "the operating system reports process "
              + old.pid()
              + " of leading JobManager "
              + old.id()
              + " ended with exit status 137 (SIGKILL)");
      proofs.add(
          "JobManager "
              + leader.id()
              + " (pid "
              + leader.pid()
              + ") leads since "
              + learnt.get("new_leader_at")
              + ", "
              + learnt.get("takeover_ms")
              + " ms after the kill");
      proofs.add("job " + now.jobId() + " runs under the new leader with the same job id");
      proofs.add(
          "checkpoint "
              + first.id()
              + " completed after the kill, continuing the old leader's checkpoint "
              + lastBefore
              + ": the checkpoint count and the job came from the HA storage");
      Map<String, String> details = new LinkedHashMap<>(learnt);
      details.put("first_checkpoint_after", Long.toString(first.id()));
      if (first.finishedAt() != null) {
        details.put(
            "first_checkpoint_after_ms",
            Long.toString(Duration.between(killedAt, first.finishedAt()).toMillis()));
      }
      return ProofVerdict.proven(killedAt, proofs, details);
    };
  }
}
