package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A split enumerator that delegates every call and, when the {@value
 * FaultSwitchboard#SOURCE_ENUMERATOR} point fires, throws on the coordinator thread. Throwing there
 * (rather than from {@code snapshotState}, which Flink would turn into one failed checkpoint) makes
 * Flink fail the job globally, as a real coordinator failure does.
 */
@API(status = INTERNAL)
public final class FaultInjectingEnumerator<SplitT extends SourceSplit, EnumChkT>
    implements SplitEnumerator<SplitT, EnumChkT> {

  /** How often the enumerator looks for a {@code now} arming while nothing else calls it. */
  static final long NOW_POLL_MILLIS = 100;

  private final SplitEnumerator<SplitT, EnumChkT> delegate;
  private final SplitEnumeratorContext<SplitT> context;

  public FaultInjectingEnumerator(
      SplitEnumerator<SplitT, EnumChkT> delegate, SplitEnumeratorContext<SplitT> context) {
    this.delegate = delegate;
    this.context = context;
  }

  @Override
  public void start() {
    delegate.start();
    // The enumerator is called rarely once the binlog is read: poll, so that "now" fires promptly.
    context.callAsync(this::pollNow, (ignored, error) -> {}, NOW_POLL_MILLIS, NOW_POLL_MILLIS);
  }

  private @Nullable Void pollNow() {
    if (FaultSwitchboard.anyArmed()) {
      for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.SOURCE_ENUMERATOR)) {
        if (arming.position() instanceof FaultPosition.Now && arming.tryFire()) {
          fail(arming, "while idle");
        }
      }
    }
    return null;
  }

  @Override
  public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
    delegate.handleSplitRequest(subtaskId, requesterHostname);
    if (FaultSwitchboard.anyArmed()) {
      for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.SOURCE_ENUMERATOR)) {
        boolean reached =
            arming.position() instanceof FaultPosition.AfterEvent after
                    && arming.countPast(after.events())
                || arming.position() instanceof FaultPosition.Now;
        if (reached && arming.tryFire()) {
          fail(arming, "after handling a split request of subtask " + subtaskId);
        }
      }
    }
  }

  @Override
  public void addSplitsBack(List<SplitT> splits, int subtaskId) {
    delegate.addSplitsBack(splits, subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    delegate.addReader(subtaskId);
  }

  @Override
  public EnumChkT snapshotState(long checkpointId) throws Exception {
    EnumChkT state = delegate.snapshotState(checkpointId);
    if (FaultSwitchboard.anyArmed()) {
      for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.SOURCE_ENUMERATOR)) {
        boolean reached =
            arming.position() instanceof FaultPosition.AtCheckpoint at
                    && checkpointId >= at.checkpoint()
                || arming.position() instanceof FaultPosition.Now;
        if (reached && arming.tryFire(checkpointId)) {
          fail(arming, "at checkpoint " + checkpointId);
        }
      }
    }
    return state;
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    delegate.notifyCheckpointComplete(checkpointId);
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    delegate.notifyCheckpointAborted(checkpointId);
  }

  @Override
  public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
    delegate.handleSourceEvent(subtaskId, sourceEvent);
  }

  /** The wrapped enumerator. */
  public SplitEnumerator<SplitT, EnumChkT> delegate() {
    return delegate;
  }

  private void fail(Arming arming, String where) {
    InjectedFaultException fault = arming.exception("in the split enumerator " + where);
    // An exception on the coordinator thread makes Flink fail the job globally.
    context.runInCoordinatorThread(
        () -> {
          throw fault;
        });
  }
}
