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
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code coordinator-failure}: the job's coordination fails, in one of two modes chosen by the spec
 * parameter {@code mode}:
 *
 * <ul>
 *   <li>{@code enumerator-throws} (default): the source's split enumerator (wrapped as the {@code
 *       source-enumerator} fault point) throws, which fails the job globally; it restarts once.
 *       Needs {@link FaultPoints} with that point (skipped without it, as on a team's own job).
 *       Proof: the fault id in the job's exception history and the restart count up by exactly one;
 *       the evidence says whether the pipeline reported the failover as global.
 *   <li>{@code cluster-dies}: the whole cluster is lost ({@link SavepointControl#loseCluster()}: no
 *       savepoint, no graceful stop), then the job is restored from its latest retained checkpoint
 *       with the same parallelism under a new job id. Needs {@link SavepointControl} (skipped
 *       without it, or when the pipeline cannot lose its cluster) and no fault point, so it runs on
 *       a team's own job too. The cluster is lost once a checkpoint completed ({@code now}), or
 *       once checkpoint N completed ({@code at-checkpoint:N}). Proof: the job id changed and the
 *       restored job runs, it was restored from retained checkpoint M (its path), and the old job's
 *       last completed checkpoint seen before the loss is not newer than M. The evidence carries
 *       the claim boundary: an embedded cluster is stopped inside the JVM, not killed as a process.
 * </ul>
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class CoordinatorFailureInjector extends BuiltInFault {

  /** The spec parameter choosing the mode. */
  public static final String MODE = "mode";

  public static final String ENUMERATOR_THROWS = "enumerator-throws";
  public static final String CLUSTER_DIES = "cluster-dies";

  /**
   * An effective-configuration key a pipeline may set to state its own claim boundary for a lost
   * cluster; it wins over what this fault infers.
   */
  public static final String CLAIM_BOUNDARY_KEY = "fault.cluster-loss.claim-boundary";

  /** The claim boundary when the lost cluster is embedded in the lab's JVM. */
  public static final String EMBEDDED_CLAIM_BOUNDARY =
      "an embedded (MiniCluster) Flink cluster is stopped inside the lab's JVM, not killed as a"
          + " process; its retained checkpoints stay on the local disk";

  /** The claim boundary when the pipeline does not say what losing its cluster means. */
  public static final String GENERIC_CLAIM_BOUNDARY =
      "the cluster was lost through the pipeline's SavepointControl.loseCluster(); what that stops"
          + " (processes, machines) is the pipeline's own claim";

  private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-([0-9]+)");

  @Override
  public String name() {
    return "coordinator-failure";
  }

  @Override
  public String description() {
    return "The source's split enumerator throws, forcing a global failover of the job";
  }

  /** What both modes need; each mode needs more ({@link #extraCapabilities}). */
  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    // Not after-event: the enumerator sees no change events, only split requests, which a running
    // job makes only when its readers (re)start, so such a fault would never fire (explore found
    // it).
    return EnumSet.of(FaultPosition.Kind.NOW, FaultPosition.Kind.AT_CHECKPOINT);
  }

  /**
   * {@code default}: the enumerator throws at a checkpoint the lab picks; {@code cluster-dies}: the
   * cluster is lost now and the job restored from its retained checkpoint.
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description() + " (needs the source-enumerator fault point)"),
        FaultVariant.of(
                CLUSTER_DIES,
                "The cluster dies (no savepoint, no graceful stop); the job is restored from its"
                    + " latest retained checkpoint under a new job id")
            .at(new FaultPosition.Now())
            .with(MODE, CLUSTER_DIES));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        MODE,
        "enumerator-throws (default) or cluster-dies (lose the cluster, restore from the latest"
            + " retained checkpoint)");
  }

  /**
   * The enumerator's mode throws at a fault point compiled into the job; losing the cluster needs
   * none, only a pipeline that can restore its job, so it also runs on a team's own job.
   */
  @Override
  Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    String mode = choice(spec, MODE, ENUMERATOR_THROWS, Set.of(ENUMERATOR_THROWS, CLUSTER_DIES));
    return CLUSTER_DIES.equals(mode) ? Set.of(SavepointControl.class) : Set.of(FaultPoints.class);
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    String mode = choice(spec, MODE, ENUMERATOR_THROWS, Set.of(ENUMERATOR_THROWS, CLUSTER_DIES));
    if (CLUSTER_DIES.equals(mode)) {
      return clusterDies(context, view);
    }
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, SOURCE_ENUMERATOR);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    return armPoint(context, view, SOURCE_ENUMERATOR, THROW, spec.position())
        .detail(MODE, ENUMERATOR_THROWS)
        .proof(Proofs.failoverCarrying(spec.id(), 1))
        .build();
  }

  private static FaultHandle clusterDies(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    if (spec.position() instanceof FaultPosition.AfterEvent) {
      throw new IllegalArgumentException(
          "Mode cluster-dies of fault "
              + spec.id()
              + " fires now or at-checkpoint:N (once checkpoint N completed), not at "
              + spec.position().text());
    }
    SavepointControl savepoints =
        context.pipeline().capability(SavepointControl.class).orElseThrow();
    Map<String, String> configuration = context.pipeline().effectiveConfiguration();
    int parallelism =
        SavepointRestoreInjector.intSetting(configuration, "parallelism.default").orElse(1);
    // without a completed checkpoint there would be nothing to restore from: wait for one
    awaitCompleted(
        view,
        spec.position() instanceof FaultPosition.AtCheckpoint at ? at.checkpoint() : 1,
        context);
    Observation baseline = view.observe();
    OptionalLong lastCompleted = lastCompleted(baseline.checkpoints());
    try {
      savepoints.loseCluster();
    } catch (UnsupportedOperationException e) {
      // nothing was changed: the pipeline cannot lose its cluster
      return skipped(
          context,
          "pipeline '"
              + context.pipeline().name()
              + "' offers SavepointControl but cannot lose its cluster: "
              + e.getMessage());
    }
    Instant lostAt = context.clock().instant();
    Map<String, String> details = new LinkedHashMap<>();
    details.put(MODE, CLUSTER_DIES);
    details.put("cluster_lost_at", lostAt.toString());
    details.put("claim_boundary", claimBoundary(configuration));
    lastCompleted.ifPresent(
        id -> details.put("old_job_last_completed_checkpoint_id", Long.toString(id)));
    details.put("parallelism", Integer.toString(parallelism));
    AtomicReference<@Nullable String> path = new AtomicReference<>();
    AtomicReference<@Nullable String> restoredJob = new AtomicReference<>();
    String problem = null;
    try {
      path.set(savepoints.latestRetainedCheckpoint());
      details.put("retained_checkpoint_path", path.get());
      restoredJob.set(savepoints.restore(path.get(), parallelism));
      details.put("restored_job_id", restoredJob.get());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      // the job is gone: hand out a handle that says so and restores it on close
      problem =
          (path.get() == null
                  ? "finding the latest retained checkpoint"
                  : "restoring " + path.get())
              + " after losing the cluster failed: "
              + e;
      details.put("restore_problem", e.toString());
    }
    String refutation = problem;
    return ProvenFault.builder(context, view, baseline)
        .what("lost the cluster and restored the job from its latest retained checkpoint")
        .details(details)
        .proof(
            refutation != null
                ? (before, now) -> ProofVerdict.refuted(refutation)
                : restoredAfterLoss(
                    Objects.requireNonNull(path.get()), restoredJob.get(), lostAt, lastCompleted))
        .healing(
            () -> {
              if (restoredJob.get() == null) {
                String latest =
                    path.get() != null ? path.get() : savepoints.latestRetainedCheckpoint();
                restoredJob.set(savepoints.restore(latest, parallelism));
              }
            })
        .build();
  }

  /** Proven when the restored job runs under a new id from a checkpoint no older than the last. */
  static ProofRule restoredAfterLoss(
      String path, @Nullable String restoredJob, Instant lostAt, OptionalLong lastCompleted) {
    return (baseline, now) -> {
      if (now.jobId().equals(baseline.jobId())) {
        return ProofVerdict.pending("the job id is still " + baseline.jobId());
      }
      if (restoredJob != null && !now.jobId().equals(restoredJob)) {
        return ProofVerdict.refuted(
            "the pipeline runs job " + now.jobId() + ", not the restored job " + restoredJob);
      }
      OptionalLong restoredFrom = checkpointIdOf(path);
      if (restoredFrom.isPresent()
          && lastCompleted.isPresent()
          && lastCompleted.getAsLong() > restoredFrom.getAsLong()) {
        return ProofVerdict.refuted(
            "the job was restored from checkpoint "
                + restoredFrom.getAsLong()
                + " ("
                + path
                + "), older than checkpoint "
                + lastCompleted.getAsLong()
                + " the lost job had completed: state was rolled back");
      }
      if (now.state() != JobState.RUNNING) {
        return ProofVerdict.pending("restored job " + now.jobId() + " is " + now.state());
      }
      Optional<String> exists = SavepointRestoreInjector.savepointExists(path);
      if (exists.isEmpty()) {
        return ProofVerdict.refuted("the retained checkpoint path " + path + " does not exist");
      }
      List<String> proofs = new ArrayList<>();
      proofs.add("the cluster was lost at " + lostAt + " (no savepoint, no graceful stop)");
      proofs.add(
          "the job was restored from retained checkpoint "
              + (restoredFrom.isPresent() ? restoredFrom.getAsLong() + " " : "")
              + path
              + " ("
              + exists.get()
              + ")");
      if (lastCompleted.isPresent() && restoredFrom.isPresent()) {
        proofs.add(
            "the lost job's last completed checkpoint seen before the loss, "
                + lastCompleted.getAsLong()
                + ", is not newer than the restored checkpoint "
                + restoredFrom.getAsLong());
      }
      proofs.add(
          "the job id changed from "
              + baseline.jobId()
              + " to "
              + now.jobId()
              + ", which is RUNNING");
      Map<String, String> details = new LinkedHashMap<>();
      details.put("new_job_id", now.jobId());
      restoredFrom.ifPresent(id -> details.put("restored_checkpoint_id", Long.toString(id)));
      return ProofVerdict.proven(lostAt, proofs, details);
    };
  }

  /** The checkpoint id in a retained checkpoint's path ({@code .../chk-42}), if it names one. */
  static OptionalLong checkpointIdOf(String path) {
    Matcher matcher = CHECKPOINT_DIRECTORY.matcher(path);
    long found = -1;
    while (matcher.find()) {
      found = Long.parseLong(matcher.group(1));
    }
    return found < 0 ? OptionalLong.empty() : OptionalLong.of(found);
  }

  private static OptionalLong lastCompleted(List<CheckpointInfo> checkpoints) {
    return checkpoints.stream()
        .filter(c -> c.completed() && !c.savepoint())
        .mapToLong(CheckpointInfo::id)
        .max();
  }

  private static void awaitCompleted(PipelineView view, long checkpoint, FaultContext context)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + context.timeout().toNanos();
    while (lastCompleted(view.job().checkpoints()).orElse(-1) < checkpoint) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "checkpoint "
                + checkpoint
                + " of job "
                + view.job().jobId()
                + " did not complete within "
                + context.timeout()
                + ", so the cluster was not lost");
      }
      Thread.sleep(50);
    }
  }

  /** What losing the cluster proves on this pipeline: its own statement, else what is inferred. */
  static String claimBoundary(Map<String, String> configuration) {
    String stated = configuration.get(CLAIM_BOUNDARY_KEY);
    if (stated != null && !stated.isBlank()) {
      return stated;
    }
    for (Map.Entry<String, String> entry : configuration.entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT);
      String value = entry.getValue().toLowerCase(Locale.ROOT);
      boolean flinkSetting = key.contains("flink") || key.contains("cluster");
      if (value.contains("minicluster")
          || flinkSetting && (value.contains("embedded") || value.contains("mini-cluster"))) {
        return EMBEDDED_CLAIM_BOUNDARY;
      }
    }
    return GENERIC_CLAIM_BOUNDARY;
  }
}
