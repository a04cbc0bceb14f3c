package io.reliabilitylab.faults;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The handle every built-in fault returns: it polls the pipeline until its {@link ProofRule} proves
 * the fault fired (or refutes it, or the deadline passes), measures recovery as running → first
 * checkpoint → first sink commit after the fault, and heals once.
 */
final class FaultRun implements FaultHandle {

  /** Heals what a fault broke; may throw, the handle reports nothing but swallows it on close. */
  @FunctionalInterface
  interface Healing {
    void heal() throws Exception;
  }

  /** Extra recovery details a fault measures once the pipeline recovered. */
  @FunctionalInterface
  interface RecoveryDetails {
    Map<String, String> measure(Observation recovered) throws Exception;
  }

  private static final Duration FIRST_POLL = Duration.ofMillis(10);
  private static final Duration LONGEST_POLL = Duration.ofMillis(200);

  private final FaultContext context;
  private final PipelineView view;
  private final String what;
  private final Observation baseline;
  private final ProofRule rule;
  private final Map<String, String> injectionDetails;
  private final Healing healing;
  private final boolean healWhenProven;
  private final RecoveryDetails recoveryDetails;
  private final AtomicBoolean healed = new AtomicBoolean();
  private final Object lock = new Object();

  private FaultEvidence evidence;
  private boolean settled;
  private @Nullable Observation proofObservation;

  private FaultRun(Builder builder) {
    this.context = builder.context;
    this.view = builder.view;
    this.what = Objects.requireNonNull(builder.what, "what");
    this.baseline = builder.baseline;
    this.rule = Objects.requireNonNull(builder.rule, "rule");
    this.injectionDetails = new LinkedHashMap<>(builder.details);
    this.healing = builder.healing;
    this.healWhenProven = builder.healWhenProven;
    this.recoveryDetails = builder.recoveryDetails;
    this.evidence =
        new FaultEvidence(
            context.spec().id(),
            context.spec().fault(),
            FaultStatus.ARMED,
            builder.injectedAt,
            null,
            what,
            withBaseline(injectionDetails, baseline),
            List.of(),
            "");
  }

  static Builder builder(FaultContext context, PipelineView view, Observation baseline) {
    return new Builder(context, view, baseline);
  }

  /** Collects what a fault sets up before it hands out its handle. */
  static final class Builder {
    private final FaultContext context;
    private final PipelineView view;
    private final Observation baseline;
    private final Instant injectedAt;
    private final Map<String, String> details = new LinkedHashMap<>();
    private @Nullable String what;
    private @Nullable ProofRule rule;
    private Healing healing = () -> {};
    private boolean healWhenProven;
    private RecoveryDetails recoveryDetails = recovered -> Map.of();

    private Builder(FaultContext context, PipelineView view, Observation baseline) {
      this.context = context;
      this.view = view;
      this.baseline = baseline;
      this.injectedAt = baseline.at();
    }

    /** The baseline taken before the fault changed anything. */
    Observation baseline() {
      return baseline;
    }

    Builder what(String what) {
      this.what = what;
      return this;
    }

    Builder detail(String key, String value) {
      details.put(key, value);
      return this;
    }

    Builder details(Map<String, String> more) {
      details.putAll(more);
      return this;
    }

    Builder proof(ProofRule rule) {
      this.rule = rule;
      return this;
    }

    /** How to heal on close; with {@code alsoWhenProven} also as soon as the fault is proven. */
    Builder healing(Healing healing, boolean alsoWhenProven) {
      this.healing = healing;
      this.healWhenProven = alsoWhenProven;
      return this;
    }

    Builder recoveryDetails(RecoveryDetails recoveryDetails) {
      this.recoveryDetails = recoveryDetails;
      return this;
    }

    FaultRun build() {
      return new FaultRun(this);
    }
  }

  @Override
  public FaultEvidence evidence() {
    synchronized (lock) {
      return evidence;
    }
  }

  @Override
  public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = FIRST_POLL;
    String progress = "not observed yet";
    while (true) {
      synchronized (lock) {
        if (settled) {
          return evidence;
        }
      }
      Observation now;
      Verdict verdict;
      try {
        now = view.observe();
        verdict = rule.judge(baseline, now);
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // the pipeline may be between attempts: a failed read is progress to report, not proof
        now = null;
        verdict = Verdict.pending("observing the pipeline failed: " + e);
      }
      if (verdict instanceof Verdict.Proven proven && now != null) {
        return settle(proven, now);
      }
      if (verdict instanceof Verdict.Refuted refuted) {
        return settleRefuted(refuted, now);
      }
      progress = ((Verdict.Pending) verdict).progress();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return notProvenYet(timeout, progress, now);
      }
      Thread.sleep(Math.max(1, Math.min(pause.toMillis(), left / 1_000_000)));
      pause =
          pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
    }
  }

  private FaultEvidence settle(Verdict.Proven proven, Observation now) {
    FaultEvidence fired;
    synchronized (lock) {
      Map<String, String> details = withBaseline(injectionDetails, baseline);
      details.putAll(observed(now));
      details.putAll(proven.details());
      fired =
          new FaultEvidence(
              evidence.faultId(),
              evidence.fault(),
              FaultStatus.FIRED,
              evidence.injectedAt(),
              proven.firedAt(),
              what,
              details,
              proven.proofs(),
              "");
      evidence = fired;
      settled = true;
      proofObservation = now;
    }
    if (healWhenProven) {
      healQuietly();
    }
    return fired;
  }

  private FaultEvidence settleRefuted(Verdict.Refuted refuted, @Nullable Observation now) {
    synchronized (lock) {
      Map<String, String> details = withBaseline(injectionDetails, baseline);
      if (now != null) {
        details.putAll(observed(now));
      }
      details.putAll(refuted.details());
      evidence = notProven(details, refuted.reason());
      settled = true;
      proofObservation = now;
      return evidence;
    }
  }

  /** Not proven within this wait; a later, longer wait may still prove it. */
  private FaultEvidence notProvenYet(Duration timeout, String progress, @Nullable Observation now) {
    synchronized (lock) {
      Map<String, String> details = withBaseline(injectionDetails, baseline);
      if (now != null) {
        details.putAll(observed(now));
      }
      evidence = notProven(details, "not proven within " + timeout + ": " + progress);
      return evidence;
    }
  }

  private FaultEvidence notProven(Map<String, String> details, String reason) {
    return new FaultEvidence(
        evidence.faultId(),
        evidence.fault(),
        FaultStatus.NOT_PROVEN,
        evidence.injectedAt(),
        null,
        what,
        details,
        List.of(),
        reason);
  }

  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout)
      throws TimeoutException, InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    FaultEvidence fired = evidence();
    if (fired.status() == FaultStatus.ARMED || fired.status() == FaultStatus.NOT_PROVEN) {
      fired = awaitFired(timeout);
    }
    Instant faultAt = fired.firedAt() != null ? fired.firedAt() : fired.injectedAt();
    Observation atProof;
    synchronized (lock) {
      atProof = proofObservation != null ? proofObservation : baseline;
    }
    String faultStatus = "fault " + fired.status() + " at " + faultAt;

    try {
      view.job().awaitRunning(remaining(deadline));
    } catch (TimeoutException e) {
      throw new TimeoutException(
          faultStatus
              + "; the job was not running again within "
              + timeout
              + " (state "
              + view.job().state()
              + "): "
              + e.getMessage());
    }
    Instant runningAt = view.clock().instant();

    CheckpointInfo checkpoint;
    try {
      checkpoint = view.job().awaitCompletedCheckpointAfter(faultAt, remaining(deadline));
    } catch (TimeoutException e) {
      throw new TimeoutException(
          faultStatus
              + "; running again at "
              + runningAt
              + ", but no checkpoint completed after the fault within "
              + timeout
              + ": "
              + e.getMessage());
    }
    Instant checkpointAt =
        checkpoint.finishedAt() != null ? checkpoint.finishedAt() : view.clock().instant();

    Map<String, String> details = new LinkedHashMap<>();
    details.put("fault_status", fired.status().name());
    details.put("job_id", view.job().jobId());
    if (view.tables().isEmpty()) {
      details.put(
          "first_commit", "not observable: the pipeline offers no TableAccess to read commits");
      return new RecoveryEvidence(
          false,
          faultAt,
          runningAt,
          checkpoint.id(),
          checkpointAt,
          null,
          null,
          restartsSince(baseline),
          details);
    }
    SnapshotInfo commit =
        awaitCommitAfter(faultAt, atProof, deadline, timeout, runningAt, checkpoint);
    Observation recovered = view.observe();
    details.put("first_commit_table", commit.table());
    if (commit.committedCheckpointId() != null) {
      details.put("first_commit_checkpoint_id", Long.toString(commit.committedCheckpointId()));
    }
    details.put("restart_count_after_recovery", Long.toString(recovered.restartCount()));
    try {
      details.putAll(recoveryDetails.measure(recovered));
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      details.put("recovery_details_problem", e.toString());
    }
    return new RecoveryEvidence(
        true,
        faultAt,
        runningAt,
        checkpoint.id(),
        checkpointAt,
        commit.snapshotId(),
        commit.committedAt(),
        restartsSince(baseline),
        details);
  }

  /**
   * The first snapshot of the current table committed after the fault: one the proof did not see
   * yet, committed after the fault time or for a checkpoint beyond what was committed before.
   */
  private SnapshotInfo awaitCommitAfter(
      Instant faultAt,
      Observation atProof,
      long deadline,
      Duration timeout,
      Instant runningAt,
      CheckpointInfo checkpoint)
      throws TimeoutException, InterruptedException {
    Set<Long> seen = new HashSet<>();
    if (atProof.snapshots() != null) {
      atProof.snapshots().forEach(s -> seen.add(s.snapshotId()));
    }
    long committedBefore =
        Math.max(baseline.maxCommittedCheckpointId(), atProof.maxCommittedCheckpointId());
    Duration pause = FIRST_POLL;
    while (true) {
      List<SnapshotInfo> snapshots = view.currentSnapshots();
      if (snapshots != null) {
        for (SnapshotInfo snapshot : snapshots) {
          Long committed = snapshot.committedCheckpointId();
          boolean newer =
              snapshot.committedAt().isAfter(faultAt)
                  || committed != null && committed > committedBefore;
          if (!seen.contains(snapshot.snapshotId()) && newer) {
            return snapshot;
          }
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        String problem = view.lastReadProblem();
        throw new TimeoutException(
            "running again at "
                + runningAt
                + ", checkpoint "
                + checkpoint.id()
                + " completed after the fault, but no sink commit after the fault at "
                + faultAt
                + " within "
                + timeout
                + (problem == null ? "" : " (" + problem + ")"));
      }
      Thread.sleep(Math.max(1, Math.min(pause.toMillis(), left / 1_000_000)));
      pause =
          pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
    }
  }

  private long restartsSince(Observation before) {
    if (!view.job().jobId().equals(before.jobId())) {
      return 0; // a restored job counts its restarts afresh
    }
    return Math.max(0, view.job().restartCount() - before.restartCount());
  }

  @Override
  public void close() {
    healQuietly();
  }

  private void healQuietly() {
    if (!healed.compareAndSet(false, true)) {
      return;
    }
    try {
      healing.heal();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // close() never throws; what could not be healed is left in the evidence
      synchronized (lock) {
        Map<String, String> details = new LinkedHashMap<>(evidence.details());
        details.put("healing_problem", e.toString());
        evidence =
            new FaultEvidence(
                evidence.faultId(),
                evidence.fault(),
                evidence.status(),
                evidence.injectedAt(),
                evidence.firedAt(),
                evidence.what(),
                details,
                evidence.proofs(),
                evidence.reason());
      }
    }
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
  }

  private static Map<String, String> withBaseline(
      Map<String, String> details, Observation baseline) {
    Map<String, String> all = new LinkedHashMap<>(details);
    all.putIfAbsent("job_id_before", baseline.jobId());
    all.putIfAbsent("restart_count_before", Long.toString(baseline.restartCount()));
    SnapshotInfo latest = baseline.latestSnapshot();
    if (latest != null) {
      all.putIfAbsent("snapshot_id_before", Long.toString(latest.snapshotId()));
    }
    long committed = baseline.maxCommittedCheckpointId();
    if (committed >= 0) {
      all.putIfAbsent("committed_checkpoint_id_before", Long.toString(committed));
    }
    return all;
  }

  /**
   * What was observed when the verdict fell, including every checkpoint failure since the baseline.
   */
  private Map<String, String> observed(Observation now) {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("job_id_after", now.jobId());
    details.put("restart_count_after", Long.toString(now.restartCount()));
    SnapshotInfo latest = now.latestSnapshot();
    if (latest != null) {
      details.put("snapshot_id_after", Long.toString(latest.snapshotId()));
    }
    StringBuilder failed = new StringBuilder();
    Set<Long> failedBefore = new HashSet<>();
    baseline.checkpoints().stream()
        .filter(c -> "FAILED".equals(c.status()))
        .forEach(c -> failedBefore.add(c.id()));
    for (CheckpointInfo checkpoint : now.checkpoints()) {
      if ("FAILED".equals(checkpoint.status()) && !failedBefore.contains(checkpoint.id())) {
        if (failed.length() > 0) {
          failed.append("; ");
        }
        failed
            .append(checkpoint.id())
            .append(": ")
            .append(CheckpointFailureReasons.withName(checkpoint.failureReason()));
      }
    }
    if (failed.length() > 0) {
      details.put("failed_checkpoints", failed.toString());
    }
    return details;
  }
}
