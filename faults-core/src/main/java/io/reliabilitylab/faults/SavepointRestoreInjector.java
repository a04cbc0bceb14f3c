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
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code savepoint-restore}: the job is stopped with a savepoint and restored from it, under a new
 * job id, with a different parallelism.
 *
 * <p>Parameter {@code parallelism}: the restored job's parallelism; by default the current one (the
 * pipeline's {@code parallelism.default}) plus one, capped at the slots the pipeline reports
 * ({@code taskmanager.numberOfTaskSlots} times {@code taskmanager.count}, else the processors), or
 * one less when already at the cap, or 1.
 *
 * <p>Proof: the savepoint path exists (checked for local paths), the job id changed to the restored
 * job's and that job is running.
 *
 * <p>Variant {@value #OLDER_SAVEPOINT} ({@code from=older-savepoint}) is expected to diverge: it
 * needs {@link TableAccess}, {@link FaultPoints} with the {@code operator} point, and a pipeline
 * that can take a savepoint while running and restore under the same job id after losing its
 * cluster; {@link OlderSavepointRestore} describes its steps and proof.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SavepointRestoreInjector extends BuiltInFault {

  /** The spec parameter setting the restored job's parallelism. */
  public static final String PARALLELISM = "parallelism";

  /** The spec parameter choosing which savepoint the job is restored from. */
  public static final String FROM = "from";

  /** Restore from the savepoint just taken (the default). */
  public static final String LATEST_SAVEPOINT = "latest-savepoint";

  /**
   * Restore from a savepoint older than the job's last commit, under the same job id, then fail the
   * job once; expected to lose data (apache/iceberg#10892), see {@link OlderSavepointRestore}.
   */
  public static final String OLDER_SAVEPOINT = "older-savepoint";

  @Override
  public String name() {
    return "savepoint-restore";
  }

  @Override
  public String description() {
    return "Stops the job with a savepoint and restores it under a new job id with a different"
        + " parallelism";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, SavepointControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  /**
   * {@code default}, and {@value #OLDER_SAVEPOINT}: the restore from an older savepoint under the
   * same job id, expected to lose data (apache/iceberg#10892); see {@link OlderSavepointRestore}.
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(
                OLDER_SAVEPOINT,
                "a savepoint taken while running, later commits, then the job restored from it"
                    + " under the same job id and failed once")
            .with(FROM, OLDER_SAVEPOINT)
            .expectedToDiverge(
                "apache/iceberg#10892: after a restore from a savepoint older than the job's"
                    + " last commit under the same job id, IcebergFilesCommitter skips the"
                    + " commits of checkpoints up to flink.max-committed-checkpoint-id and a"
                    + " further restore drops their files: silent data loss (on this stack some"
                    + " runs show duplicated changelog events instead; either fails the checks)"));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        PARALLELISM,
        "the restored job's parallelism (default: a different one)",
        FROM,
        "latest-savepoint (default) or older-savepoint (restore an older savepoint under the same"
            + " job id after later commits, then fail once: apache/iceberg#10892)");
  }

  @Override
  Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    return OLDER_SAVEPOINT.equals(spec.parameter(FROM, LATEST_SAVEPOINT))
        ? Set.of(TableAccess.class, FaultPoints.class)
        : Set.of();
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    String from = choice(spec, FROM, LATEST_SAVEPOINT, Set.of(LATEST_SAVEPOINT, OLDER_SAVEPOINT));
    SavepointControl savepoints =
        context.pipeline().capability(SavepointControl.class).orElseThrow();
    Map<String, String> configuration = context.pipeline().effectiveConfiguration();
    int current = intSetting(configuration, "parallelism.default").orElse(1);
    int target = targetParallelism(spec, current, slots(configuration));
    if (OLDER_SAVEPOINT.equals(from)) {
      Optional<FaultHandle> skipped = skipIfPointMissing(context, view, OPERATOR);
      if (skipped.isPresent()) {
        return skipped.get();
      }
      return OlderSavepointRestore.start(context, view, savepoints, current);
    }
    Observation baseline = view.observe();
    String path = savepoints.stopWithSavepoint(context.timeout());
    Instant stoppedAt = context.clock().instant();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("savepoint_path", path);
    details.put("stopped_at", stoppedAt.toString());
    details.put("parallelism_before", Integer.toString(current));
    details.put("parallelism_after", Integer.toString(target));
    AtomicReference<@Nullable String> restoredJob = new AtomicReference<>();
    @Nullable String restoreProblem = null;
    try {
      restoredJob.set(savepoints.restore(path, target));
      details.put("restored_job_id", restoredJob.get());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      // the job is stopped: hand out a handle that says so and restores it on close
      restoreProblem = "restoring from " + path + " failed: " + e;
      details.put("restore_problem", e.toString());
    }
    String problem = restoreProblem;
    return ProvenFault.builder(context, view, baseline)
        .what("stopped with a savepoint and restored at parallelism " + target)
        .details(details)
        .proof(
            problem != null
                ? (before, now) -> ProofVerdict.refuted(problem)
                : restored(path, restoredJob.get(), stoppedAt))
        .healing(
            () -> {
              if (restoredJob.get() == null) {
                restoredJob.set(savepoints.restore(path, current));
              }
            })
        .build();
  }

  private static ProofRule restored(String path, @Nullable String restoredJob, Instant stoppedAt) {
    return (baseline, now) -> {
      if (now.jobId().equals(baseline.jobId())) {
        return ProofVerdict.pending("the job id is still " + baseline.jobId());
      }
      if (restoredJob != null && !now.jobId().equals(restoredJob)) {
        return ProofVerdict.refuted(
            "the pipeline runs job " + now.jobId() + ", not the restored job " + restoredJob);
      }
      if (now.state() != JobState.RUNNING) {
        return ProofVerdict.pending("restored job " + now.jobId() + " is " + now.state());
      }
      Optional<String> exists = savepointExists(path);
      if (exists.isEmpty()) {
        return ProofVerdict.refuted("the savepoint path " + path + " does not exist");
      }
      List<String> proofs =
          List.of(
              "the job was stopped with savepoint " + path + " (" + exists.get() + ")",
              "the job id changed from " + baseline.jobId() + " to " + now.jobId(),
              "the restored job " + now.jobId() + " is RUNNING");
      return ProofVerdict.proven(
          stoppedAt, proofs, Map.of("job_id_before", baseline.jobId(), "new_job_id", now.jobId()));
    };
  }

  /** How the savepoint's existence was established, or empty when it does not exist. */
  static Optional<String> savepointExists(String path) {
    Path local = null;
    try {
      if (path.startsWith("file:")) {
        local = Path.of(URI.create(path));
      } else if (!path.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
        local = Path.of(path);
      }
    } catch (IllegalArgumentException e) {
      local = null;
    }
    if (local == null) {
      return Optional.of("remote path, reported by the pipeline; existence not checked");
    }
    return Files.exists(local) ? Optional.of("exists on the local disk") : Optional.empty();
  }

  private static int targetParallelism(FaultSpec spec, int current, int cap) {
    String wanted = spec.parameters().get(PARALLELISM);
    if (wanted != null) {
      try {
        int parallelism = Integer.parseInt(wanted.trim());
        if (parallelism >= 1) {
          return parallelism;
        }
      } catch (NumberFormatException e) {
        // fall through to the message below
      }
      throw new IllegalArgumentException(
          "Parameter parallelism of "
              + spec.id()
              + " is '"
              + wanted
              + "'; use a whole number >= 1, e.g. parallelism=2");
    }
    if (current < cap) {
      return current + 1;
    }
    return Math.max(1, current - 1);
  }

  private static int slots(Map<String, String> configuration) {
    Optional<Integer> perTaskManager = intSetting(configuration, "taskmanager.numberOfTaskSlots");
    if (perTaskManager.isPresent()) {
      return perTaskManager.get() * intSetting(configuration, "taskmanager.count").orElse(1);
    }
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  static Optional<Integer> intSetting(Map<String, String> configuration, String key) {
    String value = configuration.get(key);
    if (value == null) {
      return Optional.empty();
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      return parsed >= 1 ? Optional.of(parsed) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
