package io.reliabilitylab.kit;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A plugin's fault written with the kit, as a plugin author would: it makes the {@code operator}
 * fault point throw and proves it fired by its id in a new exception history entry and exactly one
 * restart; more restarts refute it.
 */
@AutoService(FaultInjector.class)
public final class OperatorThrowsFault implements FaultInjector {

  static final String POINT = "operator";

  @Override
  public String name() {
    return "operator-throws";
  }

  @Override
  public String description() {
    return "Makes the operator fault point throw once (plugin kit sample)";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, FaultPoints.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW, FaultPosition.Kind.AFTER_EVENT);
  }

  @Override
  public FaultHandle inject(FaultContext context) {
    Optional<FaultHandle> skipped = CapabilityCheck.skipIfMissing(this, context);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    FaultPoints points = context.pipeline().capability(FaultPoints.class).orElseThrow();
    if (!points.available().contains(POINT)) {
      return SkippedFault.because(context, "the job has no fault point '" + POINT + "'");
    }
    String faultId = context.spec().id();
    ProvenFault.Builder fault = ProvenFault.builder(context); // the baseline, before arming
    points.arm(POINT, context.spec().position(), "throw", faultId);
    return fault
        .what("throw at fault point '" + POINT + "' at " + context.spec().position().text())
        .detail("fault_point", POINT)
        .proof((baseline, now) -> judge(faultId, baseline, now))
        .healing(() -> points.disarm(faultId))
        .build();
  }

  private static ProofVerdict judge(String faultId, Observation baseline, Observation now) {
    long restarts = now.restartCount() - baseline.restartCount();
    if (restarts > 1) {
      return ProofVerdict.refuted(
          "the restart count rose by " + restarts + ", but the fault explains exactly 1");
    }
    List<JobFailure> carrying = new ArrayList<>(now.exceptionHistory());
    carrying.removeAll(baseline.exceptionHistory());
    carrying.removeIf(failure -> !failure.message().contains(faultId));
    if (carrying.isEmpty() || restarts < 1) {
      return ProofVerdict.pending(
          "fault id " + faultId + " is not in the job's exception history with a restart yet");
    }
    JobFailure failure = carrying.get(0);
    return ProofVerdict.proven(
        failure.at(),
        List.of(
            "the exception history holds "
                + failure.exceptionClass()
                + " carrying "
                + faultId
                + " at "
                + failure.at(),
            "the restart count rose by exactly 1"),
        Map.of("failure_reason", EvidenceText.truncate(failure.message())));
  }
}
