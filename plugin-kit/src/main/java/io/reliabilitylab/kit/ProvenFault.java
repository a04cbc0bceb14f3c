package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@link FaultHandle} that reports its fault fired only on proof: {@link #awaitFired} polls the
 * pipeline until a {@link ProofRule} proves the fault fired (or refutes it, or the deadline passes,
 * which leaves it {@link FaultStatus#NOT_PROVEN} with the reason); {@link #awaitRecovery} measures
 * recovery as running → first checkpoint → first sink commit after the fault; {@link #close()}
 * heals once, however often it is called. Every built-in fault hands out one.
 *
 * <p>Take the baseline before the fault changes anything, inject, then build the handle:
 *
 * <pre>{@code
 * public FaultHandle inject(FaultContext context) throws Exception {
 *   Optional<FaultHandle> skipped = CapabilityCheck.skipIfMissing(this, context);
 *   if (skipped.isPresent()) {
 *     return skipped.get();
 *   }
 *   ProvenFault.Builder fault = ProvenFault.builder(context); // takes the baseline now
 *   TaskManagerControl control = fault.view().taskManagers().orElseThrow();
 *   String victim = control.taskManagers().get(0);
 *   control.terminate(victim);
 *   return fault
 *       .what("terminated TaskManager " + victim)
 *       .detail("task_manager", victim)
 *       .proof((baseline, now) -> now.restartCount() > baseline.restartCount()
 *           ? ProofVerdict.proven(now.at(), List.of("the job restarted"), Map.of())
 *           : ProofVerdict.pending("restart count still " + now.restartCount()))
 *       .healing(() -> {
 *         if (control.taskManagers().isEmpty()) {
 *           control.startReplacement();
 *         }
 *       })
 *       .build();
 * }
 * }</pre>
 *
 * <p>The evidence details always carry the baseline ({@code job_id_before}, {@code
 * restart_count_before}, {@code snapshot_id_before}, {@code committed_checkpoint_id_before}) and,
 * once judged, what was observed then ({@code job_id_after}, {@code restart_count_after}, {@code
 * snapshot_id_after}, {@code failed_checkpoints} since the baseline). A fault built with the kit
 * needs {@link io.reliabilitylab.spi.pipeline.JobControl}; without {@link
 * io.reliabilitylab.spi.pipeline.TableAccess} its recovery is reported as not observable.
 */
@API(status = EXPERIMENTAL)
public final class ProvenFault implements FaultHandle {

  /** Heals what a fault broke; may throw: the handle swallows it and records it in the evidence. */
  @FunctionalInterface
  public interface Healing {
    void heal() throws Exception;
  }

  /** Extra recovery details a fault measures once the pipeline recovered. */
  @FunctionalInterface
  public interface RecoveryDetails {
    Map<String, String> measure(Observation recovered) throws Exception;
  }

  private final FaultContext context;
  private final PipelineView view;
  private final String what;
  private final Observation baseline;
  private final ProofRule rule;
  private final Map<String, String> injectionDetails;
  private final Healing healing;
  private final boolean healWhenProven;
  private final RecoveryDetails recoveryDetails;
  private final @Nullable RecoveryStart recoveryStart;
  private final AtomicBoolean healed = new AtomicBoolean();
  private final Object lock = new Object();

  private FaultEvidence evidence;
  private boolean settled;
  private @Nullable Observation proofObservation;

  private ProvenFault(Builder builder) {
    this.context = builder.context;
    this.view = builder.view;
    this.what = Objects.requireNonNull(builder.what, "what");
    this.baseline = builder.baseline;
    this.rule = Objects.requireNonNull(builder.rule, "rule");
    this.injectionDetails = new LinkedHashMap<>(builder.details);
    this.healing = builder.healing;
    this.healWhenProven = builder.healWhenProven;
    this.recoveryDetails = builder.recoveryDetails;
    this.recoveryStart = builder.recoveryStart;
    this.evidence =
        FaultEvidence.builder(context.spec(), builder.injectedAt)
            .what(what)
            .details(withBaseline(injectionDetails, baseline))
            .build();
  }

  /**
   * A builder watching {@code context}'s pipeline through a new {@link PipelineView}, with the
   * baseline taken now: call it before the fault changes anything.
   *
   * @throws IllegalStateException when the pipeline does not offer JobControl
   */
  public static Builder builder(FaultContext context) {
    PipelineView view = PipelineView.of(context);
    return builder(context, view, view.observe());
  }

  /**
   * A builder watching {@code view}, judging against {@code baseline}, which was taken before the
   * fault changed anything; the fault counts as injected at the baseline's time.
   */
  public static Builder builder(FaultContext context, PipelineView view, Observation baseline) {
    return new Builder(context, view, baseline);
  }

  /**
   * Collects what a fault sets up before it hands out its handle: {@link #what} and {@link #proof}
   * are required, the rest optional.
   */
  public static final class Builder {
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
    private @Nullable RecoveryStart recoveryStart;

    private Builder(FaultContext context, PipelineView view, Observation baseline) {
      this.context = Objects.requireNonNull(context, "context");
      this.view = Objects.requireNonNull(view, "view");
      this.baseline = Objects.requireNonNull(baseline, "baseline");
      this.injectedAt = baseline.at();
    }

    /** The baseline taken before the fault changed anything. */
    public Observation baseline() {
      return baseline;
    }

    /** The view the handle watches the pipeline through. */
    public PipelineView view() {
      return view;
    }

    /** One line: what the fault did (or armed), for the evidence. Required. */
    public Builder what(String what) {
      this.what = what;
      return this;
    }

    /** One injection detail (a target, a position) for the evidence. */
    public Builder detail(String key, String value) {
      details.put(key, value);
      return this;
    }

    /** Several injection details, in their iteration order. */
    public Builder details(Map<String, String> more) {
      details.putAll(more);
      return this;
    }

    /** The rule that proves the fault fired. Required. */
    public Builder proof(ProofRule rule) {
      this.rule = rule;
      return this;
    }

    /** How to heal on {@link ProvenFault#close()}: once, however often it is closed. */
    public Builder healing(Healing healing) {
      this.healing = Objects.requireNonNull(healing, "healing");
      this.healWhenProven = false;
      return this;
    }

    /**
     * How to heal as soon as the fault is proven (a stopped broker started again, so that the
     * pipeline can recover), or on close when it never is; still only once.
     */
    public Builder healingOnceProven(Healing healing) {
      this.healing = Objects.requireNonNull(healing, "healing");
      this.healWhenProven = true;
      return this;
    }

    /** Details to measure once the pipeline recovered, added to the recovery evidence. */
    public Builder recoveryDetails(RecoveryDetails recoveryDetails) {
      this.recoveryDetails = Objects.requireNonNull(recoveryDetails, "recoveryDetails");
      return this;
    }

    /**
     * Counts recovery from the moment {@code start} waits for (a reconnect) instead of from the
     * fault: the checkpoint and the sink commit that show recovery must both come after it.
     */
    public Builder recoveryFrom(RecoveryStart start) {
      this.recoveryStart = Objects.requireNonNull(start, "start");
      return this;
    }

    /**
     * The handle, armed.
     *
     * @throws NullPointerException when {@link #what} or {@link #proof} was not given
     */
    public ProvenFault build() {
      return new ProvenFault(this);
    }
  }

  @Override
  public FaultEvidence evidence() {
    synchronized (lock) {
      return evidence;
    }
  }

  /**
   * Polls the pipeline until the proof rule proves or refutes the fault, or {@code timeout} passes;
   * a later, longer wait may still prove a fault this wait left {@link FaultStatus#NOT_PROVEN}.
   */
  @Override
  public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration pause = Polling.FIRST_POLL;
    String progress = "not observed yet";
    while (true) {
      synchronized (lock) {
        if (settled) {
          return evidence;
        }
      }
      Observation now;
      ProofVerdict verdict;
      try {
        now = view.observe();
        verdict = rule.judge(baseline, now);
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // the pipeline may be between attempts: a failed read is progress to report, not proof
        now = null;
        verdict = ProofVerdict.pending("observing the pipeline failed: " + e);
      }
      if (verdict instanceof ProofVerdict.Proven proven && now != null) {
        return settle(proven, now);
      }
      if (verdict instanceof ProofVerdict.Refuted refuted) {
        return settleRefuted(refuted, now);
      }
      progress = ((ProofVerdict.Pending) verdict).progress();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return notProvenYet(timeout, progress, now);
      }
      pause = Polling.sleep(pause, left);
    }
  }

  private FaultEvidence settle(ProofVerdict.Proven proven, Observation now) {
    FaultEvidence fired;
    synchronized (lock) {
      Map<String, String> details = withBaseline(injectionDetails, baseline);
      details.putAll(observed(now));
      details.putAll(proven.details());
      fired =
          FaultEvidence.builder(evidence.faultId(), evidence.fault(), evidence.injectedAt())
              .what(what)
              .details(details)
              .proofs(proven.proofs())
              .fired(proven.firedAt())
              .build();
      evidence = fired;
      settled = true;
      proofObservation = now;
    }
    if (healWhenProven) {
      healQuietly();
    }
    return fired;
  }

  private FaultEvidence settleRefuted(ProofVerdict.Refuted refuted, @Nullable Observation now) {
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
    return FaultEvidence.builder(evidence.faultId(), evidence.fault(), evidence.injectedAt())
        .what(what)
        .details(details)
        .notProven(reason)
        .build();
  }

  /**
   * Waits for the fault to be proven (if it is not yet), then for the job running, a checkpoint
   * completed after the fault and a sink commit after it; without TableAccess the commit is not
   * observable and the evidence says so, not recovered.
   *
   * @throws TimeoutException when the pipeline did not get that far; the message says how far
   */
  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout)
      throws TimeoutException, InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    FaultEvidence fired = evidence();
    if (fired.status() == FaultStatus.ARMED || fired.status() == FaultStatus.NOT_PROVEN) {
      fired = awaitFired(timeout);
    }
    Observation atProof;
    synchronized (lock) {
      atProof = proofObservation != null ? proofObservation : baseline;
    }
    return new RecoveryWait(view, baseline, recoveryDetails, recoveryStart)
        .await(fired, atProof, timeout, deadline);
  }

  /** Heals what the fault broke, once; never throws (a healing problem goes into the evidence). */
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
        evidence = evidence.toBuilder().detail("healing_problem", e.toString()).build();
      }
    }
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
