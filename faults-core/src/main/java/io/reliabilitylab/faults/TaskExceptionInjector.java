package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code task-exception}: the job's {@code operator} fault point throws at a logical position
 * (after event K, at checkpoint N, or K rows into the snapshot phase), so one task fails and the
 * job restarts once. Works on any cluster, embedded or not.
 *
 * <p>Proof: the fault id in the job's exception history and the restart count up by exactly one.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class TaskExceptionInjector extends BuiltInFault {

  @Override
  public String name() {
    return "task-exception";
  }

  @Override
  public String description() {
    return "An operator of the job throws at a logical position; one task fails and the job"
        + " restarts once";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, FaultPoints.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(
        FaultPosition.Kind.NOW,
        FaultPosition.Kind.AFTER_EVENT,
        FaultPosition.Kind.AT_CHECKPOINT,
        FaultPosition.Kind.SNAPSHOT_PHASE);
  }

  @Override
  Map<String, String> parameters() {
    return Map.of();
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) {
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, OPERATOR);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    String faultId = context.spec().id();
    return armPoint(context, view, OPERATOR, THROW, context.spec().position())
        .proof(Proofs.failoverCarrying(faultId, 1))
        .build();
  }
}
