package io.reliabilitylab.faults;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The {@code task-failure} variants that act on a TaskManager's operating-system process: {@code
 * process-kill} (SIGKILL, then a replacement process) and {@code process-pause} (SIGSTOP until the
 * cluster declares the TaskManager lost, then SIGCONT: a TaskManager that comes back after being
 * declared dead). Both are proven by what the operating system reports (pid, exit status, a stopped
 * process) and by what Flink reports (the TaskManager gone from the ResourceManager, the job
 * restarted).
 */
final class TaskManagerProcessFaults {

  /** What a SIGKILL shows, recorded with the fault. */
  static final String KILL_CLAIM_BOUNDARY =
      "a TaskManager JVM is killed with SIGKILL by the operating system (no shutdown hook, no"
          + " goodbye to the JobManager; the JobManager learns of it from the lost connection or"
          + " the heartbeat timeout); the machine, its disks and the other processes stay up";

  /** What a pause shows, recorded with the fault. */
  static final String PAUSE_CLAIM_BOUNDARY =
      "a TaskManager JVM is frozen with SIGSTOP (as a long GC pause or a hung VM would) until the"
          + " cluster declares it lost after its heartbeat timeout, then thawed with SIGCONT; its"
          + " connections stay open meanwhile (nothing is reset), unlike a network partition";

  private static final Duration POLL = Duration.ofMillis(100);
  // How long a thawed TaskManager is watched for coming back (re-registering) or quitting.
  private static final Duration COMEBACK_WATCH = Duration.ofSeconds(20);

  private TaskManagerProcessFaults() {}

  /** SIGKILLs the TaskManager process running the job's tasks, then starts a replacement. */
  static FaultHandle kill(
      FaultContext context,
      PipelineView view,
      TaskManagerProcessControl control,
      String victim,
      String replacement)
      throws Exception {
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    long pid = control.pid(victim);
    details.put("task_manager", victim);
    details.put("task_manager_pid", Long.toString(pid));
    details.put("task_managers_before", String.join(",", control.taskManagers()));
    details.put("signal", "SIGKILL");
    details.put(TaskFailureInjector.REPLACEMENT, replacement);
    details.put("claim_boundary", KILL_CLAIM_BOUNDARY);
    AtomicReference<@Nullable String> replacementId = new AtomicReference<>();
    if ("before".equals(replacement)) {
      replacementId.set(control.startReplacement());
    }
    int exitStatus = control.kill(victim);
    Instant killedAt = context.clock().instant();
    details.put("killed_at", killedAt.toString());
    details.put("exit_status", Integer.toString(exitStatus));
    if ("after".equals(replacement)) {
      try {
        replacementId.set(control.startReplacement());
      } catch (Exception e) {
        details.put("replacement_problem", e.toString());
      }
    }
    String started = replacementId.get();
    if (started != null) {
      details.put("replacement_task_manager", started);
      details.put("replacement_pid", Long.toString(control.pid(started)));
    }
    ProofRule lost = TaskFailureInjector.lostTaskManager(victim, killedAt);
    ProofRule proof =
        (before, now) -> {
          if (exitStatus != 137) {
            return ProofVerdict.refuted(
                "TaskManager "
                    + victim
                    + " (pid "
                    + pid
                    + ") exited with status "
                    + exitStatus
                    + ", not 137 (killed by SIGKILL)");
          }
          ProofVerdict verdict = lost.judge(before, now);
          if (!(verdict instanceof ProofVerdict.Proven proven)) {
            return verdict;
          }
          // The ResourceManager drops a killed TaskManager only after its heartbeat timeout; the
          // job restarted without it already, so its listing is recorded, not awaited.
          Map<String, String> seen = new LinkedHashMap<>(proven.details());
          try {
            seen.put(
                "resource_manager_lists_it_at_proof",
                Boolean.toString(control.registeredTaskManagers().contains(victim)));
          } catch (Exception e) {
            seen.put("resource_manager_lists_it_at_proof", "unknown: " + e);
          }
          List<String> proofs = new ArrayList<>();
          proofs.add(
              "the operating system reports process "
                  + pid
                  + " of TaskManager "
                  + victim
                  + " ended with exit status 137 (SIGKILL)");
          if (started != null) {
            proofs.add(
                "replacement TaskManager "
                    + started
                    + " (pid "
                    + control.pid(started)
                    + ") joined");
          }
          proofs.addAll(proven.proofs());
          return ProofVerdict.proven(killedAt, proofs, seen);
        };
    return ProvenFault.builder(context, view, baseline)
        .what("SIGKILLed TaskManager " + victim + " (pid " + pid + ")")
        .details(details)
        .proof(proof)
        .healing(
            () -> {
              if (replacementId.get() == null && control.taskManagers().isEmpty()) {
                replacementId.set(control.startReplacement());
              }
            })
        .build();
  }

  /**
   * SIGSTOPs the TaskManager running the job's tasks; a thread of the fault's own waits until the
   * ResourceManager drops it (its heartbeat timeout), SIGCONTs it, and watches whether it comes
   * back (registers again) or quits.
   */
  static FaultHandle pause(
      FaultContext context, PipelineView view, TaskManagerProcessControl control, String victim)
      throws Exception {
    Observation baseline = view.observe();
    long pid = control.pid(victim);
    Duration heartbeatTimeout = control.heartbeatTimeout();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("task_manager", victim);
    details.put("task_manager_pid", Long.toString(pid));
    details.put("task_managers_before", String.join(",", control.taskManagers()));
    details.put("signal", "SIGSTOP, then SIGCONT once declared lost");
    details.put("heartbeat_timeout", heartbeatTimeout.toString());
    details.put("claim_boundary", PAUSE_CLAIM_BOUNDARY);
    control.pause(victim);
    Instant pausedAt = context.clock().instant();
    details.put("paused_at", pausedAt.toString());
    Map<String, String> learnt = new ConcurrentHashMap<>();
    AtomicReference<@Nullable String> problem = new AtomicReference<>();
    AtomicReference<@Nullable Instant> resumedAt = new AtomicReference<>();
    Runnable thawOnceDeclaredLost =
        () -> {
          // generous: a loaded machine notices late; past this the process is thawed anyway
          long deadline = System.nanoTime() + heartbeatTimeout.multipliedBy(4).toNanos();
          try {
            while (System.nanoTime() < deadline
                && control.registeredTaskManagers().contains(victim)) {
              Thread.sleep(POLL.toMillis());
            }
            boolean declaredLost = !control.registeredTaskManagers().contains(victim);
            Instant now = context.clock().instant();
            if (declaredLost) {
              learnt.put("declared_lost_at", now.toString());
              learnt.put(
                  "declared_lost_after_ms",
                  Long.toString(Duration.between(pausedAt, now).toMillis()));
            } else {
              problem.set(
                  "the ResourceManager still listed TaskManager "
                      + victim
                      + " "
                      + heartbeatTimeout.multipliedBy(4)
                      + " after SIGSTOP");
            }
            control.resume(victim);
            resumedAt.set(context.clock().instant());
            learnt.put("resumed_at", resumedAt.get().toString());
            learnt.put("comeback", watchComeback(control, victim));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            problem.set("pausing or resuming TaskManager " + victim + " failed: " + e);
          }
        };
    Thread thawer = new Thread(thawOnceDeclaredLost, "srl-" + context.spec().id() + "-thaw");
    thawer.setDaemon(true);
    thawer.start();
    ProofRule lost = TaskFailureInjector.lostTaskManager(victim, pausedAt);
    ProofRule proof =
        (before, now) -> {
          String failed = problem.get();
          if (failed != null) {
            return ProofVerdict.refuted(failed);
          }
          if (resumedAt.get() == null) {
            return ProofVerdict.pending(
                "TaskManager " + victim + " is stopped; the cluster has not dropped it yet");
          }
          ProofVerdict verdict = lost.judge(before, now);
          if (!(verdict instanceof ProofVerdict.Proven proven)) {
            return verdict;
          }
          List<String> proofs = new ArrayList<>();
          proofs.add(
              "process "
                  + pid
                  + " of TaskManager "
                  + victim
                  + " was stopped (SIGSTOP) at "
                  + pausedAt
                  + " and the ResourceManager dropped it after "
                  + learnt.get("declared_lost_after_ms")
                  + " ms (heartbeat timeout "
                  + heartbeatTimeout.toMillis()
                  + " ms)");
          proofs.add("thawed (SIGCONT) at " + learnt.get("resumed_at"));
          proofs.addAll(proven.proofs());
          Map<String, String> all = new LinkedHashMap<>(learnt);
          all.putAll(proven.details());
          return ProofVerdict.proven(pausedAt, proofs, all);
        };
    return ProvenFault.builder(context, view, baseline)
        .what("froze TaskManager " + victim + " (pid " + pid + ") past its heartbeat timeout")
        .details(details)
        .proof(proof)
        .recoveryDetails(recovered -> comeback(learnt))
        .healing(
            () -> {
              thawer.interrupt();
              control.resume(victim);
              if (control.taskManagers().isEmpty()) {
                control.startReplacement();
              }
            })
        .build();
  }

  /**
   * What became of the thawed TaskManager, as its watch found, once the pipeline recovered: the
   * watch may still run (it looks for {@link #COMEBACK_WATCH}), so this waits for its answer.
   */
  private static Map<String, String> comeback(Map<String, String> learnt)
      throws InterruptedException {
    long deadline = System.nanoTime() + COMEBACK_WATCH.plusSeconds(2).toNanos();
    while (!learnt.containsKey("comeback") && System.nanoTime() < deadline) {
      Thread.sleep(POLL.toMillis());
    }
    return Map.of("comeback", learnt.getOrDefault("comeback", "not known: the watch did not end"));
  }

  /** What became of a thawed TaskManager: registered again, still out, or its process gone. */
  private static String watchComeback(TaskManagerProcessControl control, String victim)
      throws Exception {
    long deadline = System.nanoTime() + COMEBACK_WATCH.toNanos();
    while (System.nanoTime() < deadline) {
      if (control.registeredTaskManagers().contains(victim)) {
        return "it registered with the ResourceManager again under its own id";
      }
      long pid = control.pid(victim);
      // the lab's processes run on its own machine: the operating system answers for them
      if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE) {
        return "its process " + pid + " quit after learning it was declared lost";
      }
      Thread.sleep(POLL.toMillis());
    }
    return "it had not registered again " + COMEBACK_WATCH.toSeconds() + " s after SIGCONT";
  }
}
