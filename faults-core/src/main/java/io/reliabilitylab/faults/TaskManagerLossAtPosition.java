package io.reliabilitylab.faults;

import static io.reliabilitylab.faults.BuiltInFault.OPERATOR;
import static io.reliabilitylab.faults.BuiltInFault.STALL;
import static io.reliabilitylab.faults.BuiltInFault.skipIfPointMissing;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * {@code task-failure} at a position on the job's data path: the operator point stalls the element
 * after K snapshot rows ({@code snapshot-phase:K}: a latch that holds the job inside its snapshot
 * phase) or after K changes of the fault's segment ({@code after-event:K}: the TaskManager is lost
 * while changes stream, with checkpoints taken since the first), then the TaskManager running the
 * job's tasks is terminated and the latch released, by a thread of the fault's own as soon as the
 * latch closed.
 */
final class TaskManagerLossAtPosition {

  private static final Duration LATCH_POLL = Duration.ofMillis(20);

  private TaskManagerLossAtPosition() {}

  /** The fault id of the operator stall that marks the position, from the fault's id. */
  static String latchId(String faultId) {
    return faultId + "-latch";
  }

  /** Arms the latch at the spec's position and loses the TaskManager once it closes. */
  static FaultHandle inject(
      FaultContext context, PipelineView view, TaskManagerControl control, String replacement)
      throws Exception {
    FaultSpec spec = context.spec();
    Place place = Place.of(spec.position());
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, OPERATOR);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    FaultPoints points = view.faultPoints().orElseThrow();
    String latch = latchId(spec.id());
    // armed first: the job reads its snapshot while the baseline is observed (slower through a
    // REST catalog), and a latch armed after row K would never close; a closed latch only holds
    // the task, and nothing is terminated before the baseline is taken
    points.arm(OPERATOR, spec.position(), STALL, latch);
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("position", spec.position().text());
    details.put("latch_fault_id", latch);
    details.put(TaskFailureInjector.REPLACEMENT, replacement);
    TaskFailureInjector.claimBoundary(context.pipeline().effectiveConfiguration())
        .ifPresent(boundary -> details.put("claim_boundary", boundary));
    AtomicReference<@Nullable String> replacementId = new AtomicReference<>();
    AtomicReference<@Nullable ProofRule> lost = new AtomicReference<>();
    Map<String, String> learnt = new ConcurrentHashMap<>();
    AtomicReference<@Nullable String> watchProblem = new AtomicReference<>();
    // The loss follows the latch at once, from a thread of the fault's own: the job must not sit
    // held (its checkpoints expiring) until the lab next looks at the fault.
    Runnable loseWhenLatched =
        () -> {
          long deadline = System.nanoTime() + context.timeout().toNanos();
          try {
            while (System.nanoTime() < deadline) {
              Optional<Instant> latched = points.firedAt(latch);
              List<String> running = latched.isPresent() ? control.taskManagers() : List.of();
              if (!running.isEmpty()) {
                String victim = spec.parameter(TaskFailureInjector.TASK_MANAGER, running.get(0));
                if ("before".equals(replacement)) {
                  replacementId.set(control.startReplacement());
                }
                control.terminate(victim);
                Instant terminatedAt = context.clock().instant();
                points.disarm(latch);
                if ("after".equals(replacement)) {
                  try {
                    replacementId.set(control.startReplacement());
                  } catch (Exception e) {
                    learnt.put("replacement_problem", e.toString());
                  }
                }
                learnt.put("task_manager", victim);
                learnt.put("task_managers_before", String.join(",", running));
                learnt.put(place.latchClosedKey(), latched.orElseThrow().toString());
                learnt.put("terminated_at", terminatedAt.toString());
                if (replacementId.get() != null) {
                  learnt.put("replacement_task_manager", replacementId.get());
                }
                lost.set(TaskFailureInjector.lostTaskManager(victim, terminatedAt));
                return;
              }
              Thread.sleep(LATCH_POLL.toMillis());
            }
            watchProblem.set(
                "the job did not pass "
                    + place.passed()
                    + " within "
                    + context.timeout()
                    + ", so no TaskManager was terminated");
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            watchProblem.set("terminating the TaskManager after the latch failed: " + e);
          }
        };
    Thread watcher = new Thread(loseWhenLatched, "srl-" + spec.id() + "-latch");
    watcher.setDaemon(true);
    watcher.start();
    ProofRule proof =
        (before, now) -> {
          ProofRule rule = lost.get();
          if (rule == null) {
            String problem = watchProblem.get();
            if (problem != null) {
              return ProofVerdict.refuted(problem);
            }
            return ProofVerdict.pending(
                points.firedAt(latch).isPresent()
                    ? "the latch closed; the TaskManager is being terminated"
                    : "the job has not passed " + place.passed() + " yet");
          }
          ProofVerdict verdict = rule.judge(before, now);
          if (verdict instanceof ProofVerdict.Proven proven) {
            List<String> proofs = new ArrayList<>(proven.proofs());
            proofs.add(
                0,
                "the operator point held the job after "
                    + place.held()
                    + " at "
                    + learnt.get(place.latchClosedKey())
                    + ", "
                    + place.where()
                    + ", when the TaskManager was terminated");
            Map<String, String> all = new LinkedHashMap<>(learnt);
            all.putAll(proven.details());
            return ProofVerdict.proven(proven.firedAt(), proofs, all);
          }
          return verdict;
        };
    return ProvenFault.builder(context, view, baseline)
        .what("terminates the TaskManager after " + place.held())
        .details(details)
        .proof(proof)
        .healing(
            () -> {
              watcher.interrupt();
              points.disarm(latch);
              if (replacementId.get() == null && control.taskManagers().isEmpty()) {
                replacementId.set(control.startReplacement());
              }
            })
        .build();
  }

  /**
   * How a latched position reads in the evidence.
   *
   * @param held what the job had passed when the latch held it, e.g. {@code 200 changes}
   * @param passed what the job must pass to close the latch
   * @param where where that leaves the job
   * @param latchClosedKey the detail naming when the latch closed
   */
  private record Place(String held, String passed, String where, String latchClosedKey) {

    static Place of(FaultPosition position) {
      if (position instanceof FaultPosition.SnapshotPhase phase) {
        return new Place(
            phase.rows() + " snapshot rows",
            (phase.rows() + 1) + " snapshot rows",
            "inside its snapshot phase",
            "snapshot_latch_closed_at");
      }
      if (position instanceof FaultPosition.AfterEvent after) {
        return new Place(
            after.events() + " changes",
            (after.events() + 1) + " changes since the fault was armed",
            "while the changes streamed",
            "latch_closed_at");
      }
      throw new IllegalArgumentException(
          "A TaskManager is lost at a snapshot-phase or after-event position, not at "
              + position.text());
    }
  }
}
