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
 * {@code coordinator-failure}: the source's split enumerator (wrapped as the {@code
 * source-enumerator} fault point) throws, which fails the job globally; it restarts once.
 *
 * <p>Proof: the fault id in the job's exception history and the restart count up by exactly one;
 * the evidence says whether the pipeline reported the failover as global.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class CoordinatorFailureInjector extends BuiltInFault {

  @Override
  public String name() {
    return "coordinator-failure";
  }

  @Override
  public String description() {
    return "The source's split enumerator throws, forcing a global failover of the job";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, FaultPoints.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(
        FaultPosition.Kind.NOW, FaultPosition.Kind.AFTER_EVENT, FaultPosition.Kind.AT_CHECKPOINT);
  }

  @Override
  Map<String, String> parameters() {
    return Map.of();
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) {
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, SOURCE_ENUMERATOR);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    return armPoint(context, view, SOURCE_ENUMERATOR, THROW, context.spec().position())
        .proof(Proofs.failoverCarrying(context.spec().id(), 1))
        .build();
  }
}
