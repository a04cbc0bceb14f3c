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
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SourceHeartbeats;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code task-failure}: the TaskManager running the job's tasks is terminated abruptly; a
 * replacement is started (after it, by default) so the job can be scheduled again.
 *
 * <p>Parameters: {@code replacement} = {@code after} (default), {@code before} or {@code none}
 * (rely on spare slots); {@code task-manager} = the id to terminate (default: the first the
 * pipeline lists); {@code process} = {@code kill} or {@code pause} (variants {@code process-kill},
 * {@code process-pause}: on a cluster whose TaskManagers are processes, see {@link
 * TaskManagerProcessFaults}).
 *
 * <p>At {@code snapshot-phase:K} or {@code after-event:K} (needs the {@code operator} fault point
 * as well) the operator point holds the element after K snapshot rows, so the job is provably
 * inside its snapshot phase, or after K changes of the fault's segment, so the TaskManager is lost
 * while they stream and not before the first; it is terminated then and the hold released right
 * after ({@link TaskManagerLossAtPosition}).
 *
 * <p>Proof: the terminated TaskManager is gone from the job's TaskManagers and the restart count
 * rose (a lost TaskManager may cost more than one restart attempt, so at least one). On an embedded
 * cluster the evidence carries the claim boundary: the TaskManager is terminated inside the JVM,
 * not killed as a process.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class TaskFailureInjector extends BuiltInFault {

  /** The spec parameter choosing when a replacement TaskManager starts. */
  public static final String REPLACEMENT = "replacement";

  /** The spec parameter naming the TaskManager to terminate. */
  public static final String TASK_MANAGER = "task-manager";

  /**
   * The spec parameter acting on the TaskManager's process: {@code kill} (SIGKILL) or {@code pause}
   * (SIGSTOP past the heartbeat timeout, then SIGCONT); needs {@link TaskManagerProcessControl}.
   */
  public static final String PROCESS = "process";

  /** The variant that SIGKILLs the TaskManager's process. */
  public static final String PROCESS_KILL = "process-kill";

  /** The variant that freezes the TaskManager's process past its heartbeat timeout. */
  public static final String PROCESS_PAUSE = "process-pause";

  /**
   * The variant that loses the TaskManager of a PostgreSQL source with 100 ms heartbeats while it
   * is idle after a commit: the known hazard {@link #FLINK_39265}.
   */
  public static final String HEARTBEATS_AFTER_IDLE_COMMIT = "heartbeats-after-idle-commit";

  /** The upstream report {@link #HEARTBEATS_AFTER_IDLE_COMMIT} reproduces. */
  public static final String FLINK_39265 =
      "FLINK-39265 (apache/flink-cdc#4323, closed unmerged): Flink CDC 3.5's PostgreSQL source,"
          + " restored from a checkpoint taken after a heartbeat at an idle commit, drops the first"
          + " change of the next transaction (its Debezium 1.9.8 WAL position locator takes the"
          + " change, reported at the commit's end LSN, as processed; fixed in Debezium 2.2,"
          + " DBZ-6204)";

  /** The variant that loses the TaskManager while the source reads its snapshot. */
  public static final String SNAPSHOT_PHASE = "snapshot-phase";

  /**
   * An effective-configuration key a pipeline may set to state its own claim boundary for a lost
   * TaskManager; it wins over what this fault infers.
   */
  public static final String CLAIM_BOUNDARY_KEY = "fault.task-failure.claim-boundary";

  /** The claim boundary on an embedded (MiniCluster) Flink. */
  public static final String EMBEDDED_CLAIM_BOUNDARY =
      "a MiniCluster TaskManager is terminated inside the JVM, not killed as a process";

  @Override
  public String name() {
    return "task-failure";
  }

  @Override
  public String description() {
    return "Terminates the TaskManager running the job's tasks and starts a replacement so the job"
        + " can come back";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, TaskManagerControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(
        FaultPosition.Kind.NOW, FaultPosition.Kind.AFTER_EVENT, FaultPosition.Kind.SNAPSHOT_PHASE);
  }

  /**
   * {@code default}: a TaskManager is lost now; {@code snapshot-phase}: it is lost once the job
   * read {@value TaskExceptionInjector#SNAPSHOT_PHASE_ROWS} snapshot rows (the lab writes rows
   * before the job starts for that); {@code process-kill}, {@code process-pause}: its process is
   * killed or frozen; {@value #HEARTBEATS_AFTER_IDLE_COMMIT}: the known hazard {@link
   * #FLINK_39265}, planned by {@code all} only where the pipeline was given source heartbeats
   * (named, it sets them itself).
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(
                SNAPSHOT_PHASE,
                "The TaskManager is lost while the source still reads its snapshot, after "
                    + TaskExceptionInjector.SNAPSHOT_PHASE_ROWS
                    + " snapshot rows")
            .at(new FaultPosition.SnapshotPhase(TaskExceptionInjector.SNAPSHOT_PHASE_ROWS)),
        FaultVariant.of(
                PROCESS_KILL,
                "The TaskManager's JVM is killed with SIGKILL and a replacement process started")
            .with(PROCESS, "kill")
            .requires(TaskManagerProcessControl.class),
        FaultVariant.of(
                PROCESS_PAUSE,
                "The TaskManager's JVM is frozen with SIGSTOP until the cluster declares it lost,"
                    + " then thawed with SIGCONT")
            .with(PROCESS, "pause")
            .requires(TaskManagerProcessControl.class),
        // the lab fires once the baseline caught up, so the source idles after a commit, and the
        // next transaction follows the restore: what FLINK-39265 needs, with frequent heartbeats
        FaultVariant.of(
                HEARTBEATS_AFTER_IDLE_COMMIT,
                "The TaskManager of a PostgreSQL source emitting heartbeats every 100 ms is lost"
                    + " while the source idles after a commit; the next transaction follows the"
                    + " restore")
            .withPipelineOption(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "100")
            .requires(ReplicationSlotAccess.class, SourceHeartbeats.class)
            .expectedToDiverge(FLINK_39265));
  }

  @Override
  Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    if (spec.parameters().containsKey(PROCESS)) {
      return Set.of(TaskManagerProcessControl.class);
    }
    return spec.position() instanceof FaultPosition.SnapshotPhase
            || spec.position() instanceof FaultPosition.AfterEvent
        ? Set.of(FaultPoints.class)
        : Set.of();
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        REPLACEMENT,
        "after (default), before or none: when a replacement TaskManager starts",
        TASK_MANAGER,
        "the TaskManager to terminate (default: the first running the job's tasks)",
        PROCESS,
        "kill (SIGKILL) or pause (SIGSTOP past the heartbeat timeout, then SIGCONT): act on the"
            + " TaskManager's process");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    String replacement = choice(spec, REPLACEMENT, "after", Set.of("after", "before", "none"));
    TaskManagerControl control = view.taskManagers().orElseThrow();
    if (spec.position() instanceof FaultPosition.SnapshotPhase
        || spec.position() instanceof FaultPosition.AfterEvent) {
      return TaskManagerLossAtPosition.inject(context, view, control, replacement);
    }
    List<String> running = control.taskManagers();
    if (running.isEmpty()) {
      throw new IllegalStateException(
          "No TaskManager runs the tasks of job "
              + view.job().jobId()
              + " of pipeline '"
              + context.pipeline().name()
              + "'; start the job and await it running before injecting "
              + spec.id());
    }
    String victim = spec.parameter(TASK_MANAGER, running.get(0));
    if (!running.contains(victim)) {
      throw new IllegalArgumentException(
          "Parameter task-manager of "
              + spec.id()
              + " is '"
              + victim
              + "', which runs none of the job's tasks; use one of "
              + running);
    }
    if (spec.parameters().containsKey(PROCESS)) {
      String process = choice(spec, PROCESS, "kill", Set.of("kill", "pause"));
      TaskManagerProcessControl processes =
          context.pipeline().capability(TaskManagerProcessControl.class).orElseThrow();
      return "kill".equals(process)
          ? TaskManagerProcessFaults.kill(context, view, processes, victim, replacement)
          : TaskManagerProcessFaults.pause(context, view, processes, victim);
    }
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("task_manager", victim);
    details.put("task_managers_before", String.join(",", running));
    details.put(REPLACEMENT, replacement);
    claimBoundary(context.pipeline().effectiveConfiguration())
        .ifPresent(boundary -> details.put("claim_boundary", boundary));
    AtomicReference<@Nullable String> replacementId = new AtomicReference<>();
    if ("before".equals(replacement)) {
      replacementId.set(control.startReplacement());
    }
    control.terminate(victim);
    Instant terminatedAt = context.clock().instant();
    details.put("terminated_at", terminatedAt.toString());
    if ("after".equals(replacement)) {
      try {
        replacementId.set(control.startReplacement());
      } catch (Exception e) {
        // the TaskManager is gone already: report the problem, the proof shows whether the job
        // came back on spare slots
        details.put("replacement_problem", e.toString());
      }
    }
    if (replacementId.get() != null) {
      details.put("replacement_task_manager", replacementId.get());
    }
    return ProvenFault.builder(context, view, baseline)
        .what("terminated TaskManager " + victim)
        .details(details)
        .proof(lostTaskManager(victim, terminatedAt))
        .healing(
            () -> {
              // heal only what is still broken: a job left with no TaskManager at all
              if (replacementId.get() == null && control.taskManagers().isEmpty()) {
                replacementId.set(control.startReplacement());
              }
            })
        .build();
  }

  /** Proven when the TaskManager is gone from the job's list and the job restarted. */
  static ProofRule lostTaskManager(String victim, Instant terminatedAt) {
    return (baseline, now) -> {
      String counts = baseline.restartCount() + " → " + now.restartCount();
      if (!now.jobId().equals(baseline.jobId())) {
        return ProofVerdict.refuted(
            "the job id changed from "
                + baseline.jobId()
                + " to "
                + now.jobId()
                + ": the job was resubmitted, not restarted");
      }
      if (now.taskManagers() == null) {
        return ProofVerdict.pending("the pipeline could not list its TaskManagers");
      }
      if (now.taskManagers().contains(victim)) {
        return ProofVerdict.pending(
            "TaskManager " + victim + " still runs tasks of the job (" + now.taskManagers() + ")");
      }
      long delta = now.restartCount() - baseline.restartCount();
      if (delta < 1) {
        return ProofVerdict.pending(
            "TaskManager " + victim + " is gone, but the job has not restarted (" + counts + ")");
      }
      List<String> proofs = new ArrayList<>();
      proofs.add(
          "TaskManager "
              + victim
              + " is gone from the job's TaskManagers, now "
              + now.taskManagers());
      proofs.add("the restart count rose by " + delta + ": " + counts);
      Map<String, String> details = new LinkedHashMap<>();
      details.put("task_managers_after", String.join(",", now.taskManagers()));
      Optional<JobFailure> loss = failureAfter(baseline, now, terminatedAt, victim);
      loss.ifPresent(
          failure -> {
            proofs.add(
                "the exception history holds "
                    + failure.exceptionClass()
                    + " at "
                    + failure.at()
                    + (failure.message().contains(victim) ? " naming " + victim : ""));
            details.putAll(Proofs.failureDetails(failure));
          });
      return ProofVerdict.proven(terminatedAt, proofs, details);
    };
  }

  /** The first new failure after the termination, preferring one that names the TaskManager. */
  private static Optional<JobFailure> failureAfter(
      Observation baseline, Observation now, Instant terminatedAt, String victim) {
    List<JobFailure> fresh = new ArrayList<>(now.exceptionHistory());
    fresh.removeAll(baseline.exceptionHistory());
    fresh.removeIf(failure -> failure.at().isBefore(terminatedAt.minusSeconds(1)));
    return fresh.stream()
        .filter(failure -> failure.message().contains(victim))
        .findFirst()
        .or(() -> fresh.stream().findFirst());
  }

  /**
   * What this fault does and does not prove on this pipeline: the pipeline's own statement, else
   * the embedded-cluster boundary when the configuration shows a MiniCluster or an embedded Flink.
   */
  static Optional<String> claimBoundary(Map<String, String> configuration) {
    String stated = configuration.get(CLAIM_BOUNDARY_KEY);
    if (stated != null && !stated.isBlank()) {
      return Optional.of(stated);
    }
    for (Map.Entry<String, String> entry : configuration.entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT);
      String value = entry.getValue().toLowerCase(Locale.ROOT);
      boolean flinkSetting = key.contains("flink") || key.contains("cluster");
      if (value.contains("minicluster")
          || flinkSetting && (value.contains("embedded") || value.contains("mini-cluster"))) {
        return Optional.of(EMBEDDED_CLAIM_BOUNDARY);
      }
    }
    return Optional.empty();
  }
}
