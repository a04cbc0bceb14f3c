package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
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
 *
 * <p>The {@code snapshot-splits} variant is the regression scenario of apache/flink-cdc#1061 on a
 * source that reads its snapshot in chunks ({@link SnapshotSplits}): chunks of {@value
 * #SPLITS_SPLIT_SIZE} rows, each snapshot row slowed by the operator point's throttle ({@value
 * #SPLITS_THROTTLE}) so that checkpoints complete between chunks, and the throw at snapshot row
 * {@value #SPLITS_ROWS} (the throttle is lifted once it fired). Its recovery details name the last
 * checkpoint the sink committed before the failure and the snapshot rows it holds ({@code
 * hazard_reached}); the checks then show whether the chunks read again after the restore duplicated
 * or lost rows.
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

  /** The variant that throws between two chunks of the snapshot, after a checkpoint. */
  public static final String SNAPSHOT_SPLITS = "snapshot-splits";

  /**
   * The parameter that slows each snapshot row (a throttle action) at a snapshot-phase position.
   */
  public static final String SNAPSHOT_THROTTLE = "snapshot-throttle";

  static final int SPLITS_SPLIT_SIZE = 4;
  static final long SPLITS_ROWS = 24;
  static final String SPLITS_THROTTLE = "throttle-100ms";

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
            .at(new FaultPosition.SnapshotPhase(SNAPSHOT_PHASE_ROWS)),
        FaultVariant.of(
                SNAPSHOT_SPLITS,
                "The source reads its snapshot in chunks of "
                    + SPLITS_SPLIT_SIZE
                    + " rows, each row slowed by "
                    + SPLITS_THROTTLE.substring("throttle-".length())
                    + " so that checkpoints complete between chunks; the operator throws at"
                    + " snapshot row "
                    + SPLITS_ROWS
                    + ", after such a checkpoint. The regression scenario of"
                    + " apache/flink-cdc#1061 (fixed in the pinned Flink CDC): the restore reads"
                    + " the unfinished chunks again, and no row may be duplicated or lost")
            .at(new FaultPosition.SnapshotPhase(SPLITS_ROWS))
            .with(SNAPSHOT_THROTTLE, SPLITS_THROTTLE)
            .withPipelineOption(
                LabOptions.SOURCE_SNAPSHOT_SPLIT_SIZE, Integer.toString(SPLITS_SPLIT_SIZE))
            .requires(SnapshotSplits.class, TableAccess.class));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        SNAPSHOT_THROTTLE,
        "at a snapshot-phase position only: slow every snapshot row by this throttle action, e.g."
            + " throttle-100ms");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) {
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, OPERATOR);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    FaultSpec spec = context.spec();
    String faultId = spec.id();
    FaultPosition position = spec.position();
    String throttle = spec.parameters().get(SNAPSHOT_THROTTLE);
    if (throttle != null && !(position instanceof FaultPosition.SnapshotPhase)) {
      throw new IllegalArgumentException(
          name()
              + ": "
              + SNAPSHOT_THROTTLE
              + " slows the snapshot phase, so it needs a snapshot-phase:K position, got "
              + position.text());
    }
    FaultPoints points = view.faultPoints().orElseThrow();
    String throttleId = faultId + "-throttle";
    ProvenFault.Builder fault =
        armPoint(context, view, OPERATOR, THROW, position)
            .proof(Proofs.failoverCarrying(faultId, 1));
    if (throttle != null) {
      points.arm(OPERATOR, new FaultPosition.SnapshotPhase(0), throttle, throttleId);
      liftWhenFired(points, faultId, throttleId, context.timeout());
      fault
          .detail(SNAPSHOT_THROTTLE, throttle + " per snapshot row")
          .healing(
              () -> {
                points.disarm(faultId);
                points.disarm(throttleId);
              });
    }
    Optional<SnapshotSplits> splits = context.pipeline().capability(SnapshotSplits.class);
    if (position instanceof FaultPosition.SnapshotPhase phase
        && splits.isPresent()
        && view.tables().isPresent()) {
      TableAccess tables = view.tables().get();
      int splitSize = splits.get().splitSize();
      fault.recoveryDetails(
          recovered ->
              SnapshotSplitHazard.details(tables, faultId, recovered, splitSize, phase.rows()));
    }
    return fault.build();
  }

  /**
   * Disarms the throttle once the throw fired, from a thread of its own: the rest of the snapshot,
   * read again after the restore, need not crawl (the lab looks at the fault only once the job
   * streams).
   */
  private static void liftWhenFired(
      FaultPoints points, String faultId, String throttleId, Duration timeout) {
    Thread lifter =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + timeout.toNanos();
              try {
                while (points.firedAt(faultId).isEmpty() && System.nanoTime() < deadline) {
                  Thread.sleep(20);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                points.disarm(throttleId);
              }
            },
            "srl-" + faultId + "-throttle");
    lifter.setDaemon(true);
    lifter.start();
  }
}
