package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.nio.file.Path;
import java.util.Objects;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value FaultSwitchboard#OPERATOR} fault point: passes every element on unchanged, and, once
 * armed, throws or stalls at its position: on an element ({@code now}, {@code after-event:K},
 * {@code snapshot-phase:K}), in the synchronous part of checkpoint N ({@code at-checkpoint:N}), or
 * in {@code notifyCheckpointComplete} of checkpoint N. A throttle ({@code throttle-2ms}) delays
 * every element from its position on until it is disarmed (at {@code snapshot-phase:K}, every
 * snapshot row from the K-th on). It keeps no state, so adding or removing it does not break a
 * restore. With a start gate it holds each task attempt's first element until the gate is open
 * ({@link StartGates}).
 *
 * <pre>{@code
 * envelopes.map(new OperatorFaultPoint<>(envelope -> "r".equals(envelope.op())))
 *     .returns(envelopes.getType())
 *     .uid(OperatorFaultPoint.UID);
 * }</pre>
 *
 * @param <T> the element type
 */
@API(status = EXPERIMENTAL)
public final class OperatorFaultPoint<T> extends RichMapFunction<T, T>
    implements CheckpointedFunction, CheckpointListener {

  /** The operator's uid in the job: stable, so that savepoints map back. */
  public static final String UID = "fault-point-operator";

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(OperatorFaultPoint.class);

  private final FilterFunction<T> isSnapshotRow;
  private final @Nullable String faultChannel;
  private final @Nullable String startGate;
  // Per task attempt: whether the first element went through the start gate.
  private transient boolean started;

  /**
   * A fault point whose {@code snapshot-phase:K} position counts the elements {@code isSnapshotRow}
   * accepts, armed through this JVM's {@link FaultSwitchboard} only.
   */
  public OperatorFaultPoint(FilterFunction<T> isSnapshotRow) {
    this(isSnapshotRow, null);
  }

  /**
   * A fault point that, when it opens, also watches the {@link FaultChannel} in {@code
   * faultChannel} (if not null), so that the lab arms it in whichever JVM the subtask runs.
   */
  public OperatorFaultPoint(FilterFunction<T> isSnapshotRow, @Nullable Path faultChannel) {
    this(isSnapshotRow, faultChannel, null);
  }

  /**
   * A fault point that also holds the first element of each task attempt until the {@link
   * StartGates start gate} {@code startGate} (if not null) is open, so that faults the lab arms
   * right after submitting the job count from the job's first element.
   */
  public OperatorFaultPoint(
      FilterFunction<T> isSnapshotRow, @Nullable Path faultChannel, @Nullable String startGate) {
    this.isSnapshotRow = Objects.requireNonNull(isSnapshotRow, "isSnapshotRow");
    // A string: Path is not serializable.
    this.faultChannel = faultChannel == null ? null : faultChannel.toAbsolutePath().toString();
    this.startGate = startGate;
  }

  @Override
  public void open(OpenContext openContext) throws Exception {
    super.open(openContext);
    FaultChannelWatcher.watch(faultChannel);
  }

  @Override
  public T map(T element) throws Exception {
    if (!started) {
      passStartGate();
    }
    if (FaultSwitchboard.anyArmed()) {
      onElement(element);
    }
    return element;
  }

  private void onElement(T element) throws Exception {
    for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.OPERATOR)) {
      if (arming.action() == FaultAction.THROTTLE) {
        if (!arming.throttling() && reached(arming, element)) {
          arming.startThrottling();
        }
        // a throttle placed in the snapshot phase slows the snapshot's rows, not the changes
        // streamed after it
        if (arming.throttling()
            && (!(arming.position() instanceof FaultPosition.SnapshotPhase)
                || isSnapshotRow.filter(element))) {
          arming.throttle();
        }
        continue;
      }
      FaultPosition position = arming.position();
      boolean reached;
      if (position instanceof FaultPosition.AfterEvent after) {
        reached = arming.countPast(after.events());
      } else if (position instanceof FaultPosition.SnapshotPhase snapshot) {
        reached = isSnapshotRow.filter(element) && arming.countPast(snapshot.rows());
      } else {
        reached = position instanceof FaultPosition.Now;
      }
      if (reached && arming.tryFire()) {
        perform(arming, "on an element in subtask " + subtask());
      }
    }
  }

  private void passStartGate() throws InterruptedException {
    if (startGate != null
        && !StartGates.isOpen(startGate)
        && !StartGates.await(startGate, StartGates.LONGEST_WAIT)) {
      LOG.warn(
          "Start gate {} not opened within {} s: subtask {} goes on (a fault placed at the job's"
              + " start counts from its arming)",
          startGate,
          StartGates.LONGEST_WAIT.toSeconds(),
          subtask());
      // once in this JVM: a restarted task here must not wait again for a gate nobody opens
      StartGates.open(startGate);
    }
    started = true;
  }

  /** Whether this element reaches a throttle's position (counting it, as a throw would). */
  private boolean reached(Arming arming, T element) throws Exception {
    FaultPosition position = arming.position();
    if (position instanceof FaultPosition.AfterEvent after) {
      return arming.countPast(after.events());
    }
    if (position instanceof FaultPosition.SnapshotPhase snapshot) {
      return isSnapshotRow.filter(element) && arming.countPast(snapshot.rows());
    }
    return position instanceof FaultPosition.Now;
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (!FaultSwitchboard.anyArmed()) {
      return;
    }
    long checkpoint = context.getCheckpointId();
    for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.OPERATOR)) {
      if (arming.action() != FaultAction.THROW_ON_CHECKPOINT_COMPLETE
          && reachedCheckpoint(arming, checkpoint)
          && arming.tryFire(checkpoint)) {
        perform(arming, "in the synchronous part of checkpoint " + checkpoint);
      }
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpoint) {
    if (!FaultSwitchboard.anyArmed()) {
      return;
    }
    for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.OPERATOR)) {
      if (arming.action() == FaultAction.THROW_ON_CHECKPOINT_COMPLETE
          && reachedCheckpoint(arming, checkpoint)
          && arming.tryFire(checkpoint)) {
        throw arming.exception("in notifyCheckpointComplete of checkpoint " + checkpoint);
      }
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    // Stateless: the point's counters live in the switchboard, per arming.
  }

  private static boolean reachedCheckpoint(Arming arming, long checkpoint) {
    return arming.position() instanceof FaultPosition.AtCheckpoint at
        && checkpoint >= at.checkpoint();
  }

  private static void perform(Arming arming, String where) throws Exception {
    if (arming.action() == FaultAction.STALL) {
      arming.stall();
    } else {
      throw arming.exception(where);
    }
  }

  private String subtask() {
    try {
      return Integer.toString(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
    } catch (IllegalStateException e) {
      // Not running inside a task (a unit test calls the function directly).
      return "?";
    }
  }
}
