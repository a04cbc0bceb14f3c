package io.reliabilitylab.faults;

import io.reliabilitylab.kit.CheckpointFailureReasons;
import io.reliabilitylab.kit.EvidenceText;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The proof rules the built-in faults share. */
final class Proofs {

  private Proofs() {}

  /**
   * A fault that fails the job: its id must appear in the exception history (in an entry the
   * baseline did not hold) and the restart count must rise by exactly {@code expectedRestarts}.
   * More restarts than that refute it: something else restarted the job too.
   */
  static ProofRule failoverCarrying(String faultId, long expectedRestarts) {
    return (baseline, now) -> {
      long delta = now.restartCount() - baseline.restartCount();
      String counts = baseline.restartCount() + " → " + now.restartCount();
      List<JobFailure> carrying = newFailuresCarrying(faultId, baseline, now);
      if (!now.jobId().equals(baseline.jobId())) {
        return ProofVerdict.refuted(
            "the job id changed from "
                + baseline.jobId()
                + " to "
                + now.jobId()
                + " while waiting for the fault: its restart count cannot be compared");
      }
      if (delta > expectedRestarts) {
        return new ProofVerdict.Refuted(
            "the restart count rose by "
                + delta
                + " ("
                + counts
                + ") but the fault explains exactly "
                + expectedRestarts
                + (carrying.isEmpty()
                    ? ", and its id " + faultId + " is not in the exception history"
                    : "; another failure restarted the job as well"),
            Map.of("restart_count_after", Long.toString(now.restartCount())));
      }
      if (carrying.isEmpty()) {
        return ProofVerdict.pending(
            "fault id "
                + faultId
                + " is not in the job's exception history"
                + (now.pointFiredAt() == null
                    ? ""
                    : " although the fault point fired at " + now.pointFiredAt())
                + "; restart count "
                + counts);
      }
      if (delta < expectedRestarts) {
        return ProofVerdict.pending(
            "fault id "
                + faultId
                + " is in the exception history, but the restart count rose by "
                + delta
                + " of the "
                + expectedRestarts
                + " expected ("
                + counts
                + ")");
      }
      JobFailure first = carrying.get(0);
      List<String> proofs = new ArrayList<>();
      proofs.add(
          "the exception history holds "
              + first.exceptionClass()
              + " carrying "
              + faultId
              + " at "
              + first.at()
              + (first.task() == null ? "" : " in " + first.task())
              + (first.global() ? " (global failover)" : ""));
      proofs.add("the restart count rose by exactly " + expectedRestarts + ": " + counts);
      if (now.pointFiredAt() != null) {
        proofs.add("the fault point reports it fired at " + now.pointFiredAt());
      }
      Instant firedAt = now.pointFiredAt() != null ? now.pointFiredAt() : first.at();
      return ProofVerdict.proven(firedAt, proofs, failureDetails(first));
    };
  }

  /**
   * A checkpoint failure the job tolerates: the fault point fired, a checkpoint at or after {@code
   * fromCheckpoint} failed with a reason, a later checkpoint completed, and the restart count did
   * not change. Any restart refutes it.
   */
  static ProofRule toleratedCheckpointFailure(String faultId, long fromCheckpoint) {
    return (baseline, now) -> {
      String counts = baseline.restartCount() + " → " + now.restartCount();
      if (now.restartCount() != baseline.restartCount() || !now.jobId().equals(baseline.jobId())) {
        List<JobFailure> carrying = newFailuresCarrying(faultId, baseline, now);
        Map<String, String> details = new LinkedHashMap<>();
        carrying.stream().findFirst().ifPresent(f -> details.putAll(failureDetails(f)));
        return new ProofVerdict.Refuted(
            "the job restarted (restart count "
                + counts
                + (now.jobId().equals(baseline.jobId()) ? "" : ", job id now " + now.jobId())
                + ") on a checkpoint failure it should tolerate"
                + (carrying.isEmpty() ? "" : "; the failure carried " + faultId),
            details);
      }
      if (now.pointFiredAt() == null) {
        return ProofVerdict.pending(
            "the fault point armed with "
                + faultId
                + " has not fired (latest checkpoint "
                + now.latestCheckpointId()
                + ", waiting for checkpoint "
                + fromCheckpoint
                + ")");
      }
      Optional<CheckpointInfo> failed = newFailedCheckpoint(baseline, now, fromCheckpoint);
      if (failed.isEmpty()) {
        return ProofVerdict.pending(
            "the fault point fired at "
                + now.pointFiredAt()
                + ", but no checkpoint >= "
                + fromCheckpoint
                + " is FAILED yet (latest checkpoint "
                + now.latestCheckpointId()
                + ")");
      }
      CheckpointInfo checkpoint = failed.get();
      if (checkpoint.failureReason() == null || checkpoint.failureReason().isBlank()) {
        return ProofVerdict.pending(
            "checkpoint " + checkpoint.id() + " failed, but the pipeline gives no failure reason");
      }
      Optional<CheckpointInfo> later =
          now.checkpoints().stream()
              .filter(c -> c.completed() && c.id() > checkpoint.id())
              .findFirst();
      if (later.isEmpty()) {
        return ProofVerdict.pending(
            "checkpoint "
                + checkpoint.id()
                + " failed ("
                + checkpoint.failureReason()
                + "); waiting for a later checkpoint to complete without a restart");
      }
      List<String> proofs =
          List.of(
              "the fault point reports it fired at " + now.pointFiredAt(),
              "checkpoint "
                  + checkpoint.id()
                  + " FAILED: "
                  + checkpoint.failureReason()
                  + (FaultIds.mentionedIn(faultId, checkpoint.failureReason())
                      ? " (carrying " + faultId + ")"
                      : ""),
              "checkpoint "
                  + later.get().id()
                  + " completed afterwards with the restart count unchanged at "
                  + now.restartCount());
      Map<String, String> details = new LinkedHashMap<>();
      details.put("checkpoint_id", Long.toString(checkpoint.id()));
      details.put("failure_reason", truncate(checkpoint.failureReason()));
      details.put(
          "checkpoint_failure_reason",
          CheckpointFailureReasons.describe(checkpoint.failureReason()));
      details.put("next_completed_checkpoint_id", Long.toString(later.get().id()));
      Instant firedAt = now.pointFiredAt();
      return ProofVerdict.proven(firedAt, proofs, details);
    };
  }

  /**
   * {@code rule}, and once it is proven, the failure reason of the first checkpoint at or after
   * {@code fromCheckpoint} that failed since the baseline, named as Flink's {@code
   * CheckpointFailureReason}: a failover through a checkpoint also fails that checkpoint. A
   * pipeline that does not report the failed checkpoint does not hold the proof back; the evidence
   * says so.
   */
  static ProofRule withCheckpointFailureReason(ProofRule rule, long fromCheckpoint) {
    return (baseline, now) -> {
      ProofVerdict verdict = rule.judge(baseline, now);
      if (!(verdict instanceof ProofVerdict.Proven proven)) {
        return verdict;
      }
      Map<String, String> details = new LinkedHashMap<>(proven.details());
      List<String> proofs = new ArrayList<>(proven.proofs());
      Optional<CheckpointInfo> failed = newFailedCheckpoint(baseline, now, fromCheckpoint);
      if (failed.isPresent()) {
        CheckpointInfo checkpoint = failed.get();
        String reason = CheckpointFailureReasons.describe(checkpoint.failureReason());
        details.put("failed_checkpoint_id", Long.toString(checkpoint.id()));
        details.put("checkpoint_failure_reason", reason);
        proofs.add("checkpoint " + checkpoint.id() + " FAILED: " + reason);
      } else {
        details.put(
            "checkpoint_failure_reason",
            "not reported: no checkpoint >= " + fromCheckpoint + " is FAILED in the job's history");
      }
      return ProofVerdict.proven(proven.firedAt(), proofs, details);
    };
  }

  /** The first checkpoint at or after {@code fromCheckpoint} that failed since the baseline. */
  static Optional<CheckpointInfo> newFailedCheckpoint(
      Observation baseline, Observation now, long fromCheckpoint) {
    return now.checkpoints().stream()
        .filter(c -> "FAILED".equals(c.status()) && c.id() >= fromCheckpoint)
        .filter(
            c ->
                baseline.checkpoints().stream()
                    .noneMatch(b -> b.id() == c.id() && "FAILED".equals(b.status())))
        .findFirst();
  }

  /** Exception history entries carrying the fault id that the baseline did not hold. */
  static List<JobFailure> newFailuresCarrying(
      String faultId, Observation baseline, Observation now) {
    List<JobFailure> before = FaultIds.failuresCarrying(faultId, baseline.exceptionHistory());
    List<JobFailure> all = FaultIds.failuresCarrying(faultId, now.exceptionHistory());
    List<JobFailure> fresh = new ArrayList<>(all);
    for (JobFailure old : before) {
      fresh.remove(old);
    }
    return fresh;
  }

  static Map<String, String> failureDetails(JobFailure failure) {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("failure_class", failure.exceptionClass());
    details.put("failure_reason", truncate(failure.message()));
    details.put("failure_at", failure.at().toString());
    if (failure.task() != null) {
      details.put("failed_task", failure.task());
    }
    if (failure.location() != null) {
      details.put("failed_location", failure.location());
    }
    details.put("global_failover", Boolean.toString(failure.global()));
    return details;
  }

  /** A failure message as evidence keeps it: one line, capped. */
  static String truncate(String text) {
    return EvidenceText.truncate(text);
  }
}
