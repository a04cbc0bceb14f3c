package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.EnumSet;
import java.util.List;
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

  /** The default variant's position: after this many change events. */
  public static final long DEFAULT_AFTER_EVENTS = 100;

  /**
   * The {@code snapshot-phase} variant's position: after this many snapshot rows. Small, because
   * the snapshot holds only the rows alive when the job starts: about 80 after a 500-change
   * preload, 165 after the default run's 1,000.
   */
  public static final long SNAPSHOT_PHASE_ROWS = 50;

  /** The variant that throws while the source still reads its snapshot. */
  public static final String SNAPSHOT_PHASE = "snapshot-phase";

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

  /**
   * {@code default} throws after {@value #DEFAULT_AFTER_EVENTS} events; {@code snapshot-phase}
   * throws after {@value #SNAPSHOT_PHASE_ROWS} snapshot rows, so the lab must write rows before the
   * job starts for the snapshot phase to have them.
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()).at(new FaultPosition.AfterEvent(DEFAULT_AFTER_EVENTS)),
        FaultVariant.of(
                SNAPSHOT_PHASE,
                "The operator throws after "
                    + SNAPSHOT_PHASE_ROWS
                    + " rows of the snapshot phase, while the source still reads its snapshot")
            .at(new FaultPosition.SnapshotPhase(SNAPSHOT_PHASE_ROWS)));
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
