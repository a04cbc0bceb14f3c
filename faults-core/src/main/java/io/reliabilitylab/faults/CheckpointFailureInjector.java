package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;

/**
 * {@code checkpoint-failure}: checkpoint N fails, in one of three variants chosen by the spec
 * parameter {@code variant}:
 *
 * <ul>
 *   <li>{@code tolerated-async} (default): the checkpoint storage fails the asynchronous part of
 *       checkpoint N; the job tolerates it and does not restart;
 *   <li>{@code expired}: the operator stalls the synchronous part of checkpoint N (or, on a job
 *       without the operator point, the checkpoint storage stalls its files) past the checkpoint
 *       timeout, so it expires; tolerated too, and the stall is released once the expiry is seen;
 *   <li>{@code restart-sync}: the operator throws in the synchronous part of checkpoint N, which
 *       fails a task and restarts the job once.
 * </ul>
 *
 * <p>Proof (tolerated variants): the fault point fired, a checkpoint >= N is FAILED with a reason,
 * a later checkpoint completed and the restart count did not change. Proof ({@code restart-sync}):
 * the fault id in the exception history and the restart count up by exactly one. Every failed
 * checkpoint's reason is in the evidence.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class CheckpointFailureInjector extends BuiltInFault {

  /** The spec parameter choosing the variant. */
  public static final String VARIANT = "variant";

  public static final String TOLERATED_ASYNC = "tolerated-async";
  public static final String EXPIRED = "expired";
  public static final String RESTART_SYNC = "restart-sync";

  @Override
  public String name() {
    return "checkpoint-failure";
  }

  @Override
  public String description() {
    return "Checkpoint N fails: tolerated in its asynchronous part or by expiry, or restarting the"
        + " job from its synchronous part";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, FaultPoints.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.AT_CHECKPOINT);
  }

  /**
   * {@code default} ({@value #TOLERATED_ASYNC}), {@value #EXPIRED} and {@value #RESTART_SYNC}, each
   * at a checkpoint the lab picks ahead of the running job.
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(
            "The checkpoint storage fails the asynchronous part of checkpoint N; the job tolerates"
                + " it (CHECKPOINT_ASYNC_EXCEPTION or FINALIZE_CHECKPOINT_FAILURE) and does not"
                + " restart"),
        FaultVariant.of(
                EXPIRED,
                "Checkpoint N is stalled until it expires (CHECKPOINT_EXPIRED); tolerated, no"
                    + " restart")
            .with(VARIANT, EXPIRED),
        FaultVariant.of(
                RESTART_SYNC,
                "The operator throws in the synchronous part of checkpoint N; a task fails and the"
                    + " job restarts once")
            .with(VARIANT, RESTART_SYNC));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(VARIANT, "tolerated-async (default), expired or restart-sync");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) {
    FaultSpec spec = context.spec();
    String variant =
        choice(spec, VARIANT, TOLERATED_ASYNC, Set.of(TOLERATED_ASYNC, EXPIRED, RESTART_SYNC));
    // An expiry is made by the operator's stall in the synchronous part where the job has that
    // point: a storage stall holds only a task's own state file, and with task state inlined into
    // the checkpoint's metadata (Flink's default) no task writes one.
    String stallPoint =
        view.faultPoints().orElseThrow().available().contains(OPERATOR)
            ? OPERATOR
            : CHECKPOINT_STORAGE;
    String point =
        RESTART_SYNC.equals(variant)
            ? OPERATOR
            : EXPIRED.equals(variant) ? stallPoint : CHECKPOINT_STORAGE;
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, point);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    long checkpoint = ((FaultPosition.AtCheckpoint) spec.position()).checkpoint();
    Map<String, String> settings = checkpointSettings(context);
    FaultPoints points = view.faultPoints().orElseThrow();
    return switch (variant) {
      case RESTART_SYNC ->
          armPoint(context, view, OPERATOR, THROW, spec.position())
              .what("the operator throws in the synchronous part of checkpoint " + checkpoint)
              .detail(VARIANT, variant)
              .detail("checkpoint_id", Long.toString(checkpoint))
              .details(settings)
              .proof(
                  Proofs.withCheckpointFailureReason(
                      Proofs.failoverCarrying(spec.id(), 1), checkpoint))
              .build();
      case EXPIRED -> {
        AtomicBoolean released = new AtomicBoolean();
        ProofRule tolerated = Proofs.toleratedCheckpointFailure(spec.id(), checkpoint);
        yield armPoint(context, view, stallPoint, STALL, spec.position())
            .what(
                (OPERATOR.equals(stallPoint)
                        ? "the operator stalls the synchronous part of checkpoint "
                        : "the checkpoint storage stalls checkpoint ")
                    + checkpoint
                    + " until it expires")
            .detail(VARIANT, variant)
            .details(settings)
            .proof(
                (baseline, now) -> {
                  // release the stall once the checkpoint expired, so later ones are not held up
                  if (Proofs.newFailedCheckpoint(baseline, now, checkpoint).isPresent()
                      && released.compareAndSet(false, true)) {
                    points.disarm(spec.id());
                  }
                  return tolerated.judge(baseline, now);
                })
            .build();
      }
      default ->
          armPoint(context, view, CHECKPOINT_STORAGE, THROW, spec.position())
              .what(
                  "the checkpoint storage fails the asynchronous part of checkpoint " + checkpoint)
              .detail(VARIANT, variant)
              .details(settings)
              .proof(Proofs.toleratedCheckpointFailure(spec.id(), checkpoint))
              .build();
    };
  }

  /** The settings that decide whether a checkpoint failure is tolerated, as the pipeline runs. */
  private static Map<String, String> checkpointSettings(FaultContext context) {
    Map<String, String> settings = new LinkedHashMap<>();
    context
        .pipeline()
        .effectiveConfiguration()
        .forEach(
            (key, value) -> {
              if (key.startsWith("execution.checkpointing.timeout")
                  || key.startsWith("execution.checkpointing.tolerable")
                  || key.startsWith("execution.checkpointing.interval")) {
                settings.put(key, value);
              }
            });
    return settings;
  }
}
