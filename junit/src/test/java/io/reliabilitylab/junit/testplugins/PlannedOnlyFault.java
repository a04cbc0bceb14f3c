package io.reliabilitylab.junit.testplugins;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** A fault with two variants that scenarios plan and never inject. */
public final class PlannedOnlyFault implements FaultInjector {

  public static final String NAME = "junit-test-fault";

  /** The variant besides the default one: fires in the snapshot phase with a parameter. */
  public static final String EARLY = "early";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A fault the JUnit extension's tests plan and never inject.";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of();
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(
        FaultPosition.Kind.NOW,
        FaultPosition.Kind.AT_CHECKPOINT,
        FaultPosition.Kind.SNAPSHOT_PHASE);
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(EARLY, "while the snapshot is read")
            .at(new FaultPosition.SnapshotPhase(50))
            .with("speed", "fast"));
  }

  @Override
  public FaultHandle inject(FaultContext context) {
    throw new UnsupportedOperationException("the extension's tests never inject a fault");
  }
}
