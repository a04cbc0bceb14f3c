package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultInjectingSourceTest {

  private static final String ID = "srl-fault-3-coordinator-failure";

  private final FakeContext context = new FakeContext();
  private final FakeEnumerator delegate = new FakeEnumerator();
  private final SplitEnumerator<FakeSplit, String> enumerator;

  FaultInjectingSourceTest() throws Exception {
    enumerator = FaultInjectingSource.wrap(new FakeSource(delegate)).createEnumerator(context);
    enumerator.start();
  }

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void delegatesEverythingAndNeverFailsWhenNotArmed() throws Exception {
    enumerator.addReader(0);
    enumerator.handleSplitRequest(0, "localhost");
    enumerator.addSplitsBack(List.of(new FakeSplit("s1")), 0);
    String state = enumerator.snapshotState(7);
    enumerator.notifyCheckpointComplete(7);
    enumerator.notifyCheckpointAborted(8);
    enumerator.handleSourceEvent(0, new SourceEvent() {});
    context.poll();
    enumerator.close();

    assertThat(state).isEqualTo("state-7");
    assertThat(delegate.calls)
        .containsExactly(
            "start",
            "addReader 0",
            "handleSplitRequest 0",
            "addSplitsBack [s1] 0",
            "snapshotState 7",
            "notifyCheckpointComplete 7",
            "notifyCheckpointAborted 8",
            "handleSourceEvent 0",
            "close");
    assertThat(context.failures).isEmpty();
  }

  @Test
  void failsOnTheCoordinatorThreadOnceAtCheckpointN() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.SOURCE_ENUMERATOR,
        new FaultPosition.AtCheckpoint(3),
        FaultAction.THROW,
        ID);

    enumerator.snapshotState(2);
    assertThat(context.failures).isEmpty();
    assertThat(enumerator.snapshotState(3))
        .as("the checkpoint itself succeeds")
        .isEqualTo("state-3");
    enumerator.snapshotState(4);

    assertThat(context.failures).hasSize(1);
    assertThat(context.failures.get(0))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageStartingWith(ID)
        .hasMessageContaining("at checkpoint 3");
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
  }

  @Test
  void failsAfterKHandledSplitRequests() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SOURCE_ENUMERATOR, new FaultPosition.AfterEvent(2), FaultAction.THROW, ID);

    enumerator.handleSplitRequest(0, null);
    enumerator.handleSplitRequest(1, null);
    assertThat(context.failures).isEmpty();
    enumerator.handleSplitRequest(0, null);
    enumerator.handleSplitRequest(1, null);

    assertThat(context.failures)
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining(ID));
  }

  @Test
  void failsNowEvenWhileNothingCallsTheEnumerator() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SOURCE_ENUMERATOR, new FaultPosition.Now(), FaultAction.THROW, ID);

    context.poll();
    context.poll();

    assertThat(context.failures)
        .singleElement()
        .satisfies(e -> assertThat(e).hasMessageContaining(ID));
  }

  @Test
  void restoresThroughTheWrapperAndKeepsTheDelegatesSerializersAndType() throws Exception {
    FakeSource source = new FakeSource(delegate);
    FaultInjectingSource<String, FakeSplit, String> wrapped = FaultInjectingSource.wrap(source);

    SplitEnumerator<FakeSplit, String> restored = wrapped.restoreEnumerator(context, "state-1");

    assertThat(restored).isInstanceOf(FaultInjectingEnumerator.class);
    assertThat(((FaultInjectingEnumerator<FakeSplit, String>) restored).delegate())
        .isSameAs(delegate);
    assertThat(delegate.calls).contains("restore state-1");
    assertThat(wrapped.getProducedType()).isEqualTo(Types.STRING);
    assertThat(wrapped.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThat(wrapped.getSplitSerializer()).isNull();
  }

  record FakeSplit(String splitId) implements SourceSplit {}

  static final class FakeEnumerator implements SplitEnumerator<FakeSplit, String> {
    final List<String> calls = new ArrayList<>();

    @Override
    public void start() {
      calls.add("start");
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
      calls.add("handleSplitRequest " + subtaskId);
    }

    @Override
    public void addSplitsBack(List<FakeSplit> splits, int subtaskId) {
      calls.add(
          "addSplitsBack " + splits.stream().map(FakeSplit::splitId).toList() + " " + subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
      calls.add("addReader " + subtaskId);
    }

    @Override
    public String snapshotState(long checkpointId) {
      calls.add("snapshotState " + checkpointId);
      return "state-" + checkpointId;
    }

    @Override
    public void close() {
      calls.add("close");
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      calls.add("notifyCheckpointComplete " + checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
      calls.add("notifyCheckpointAborted " + checkpointId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
      calls.add("handleSourceEvent " + subtaskId);
    }
  }

  /** A source whose serializers are never used here. */
  static final class FakeSource
      implements Source<String, FakeSplit, String>, ResultTypeQueryable<String> {
    private static final long serialVersionUID = 1L;
    private final transient FakeEnumerator enumerator;

    FakeSource(FakeEnumerator enumerator) {
      this.enumerator = enumerator;
    }

    @Override
    public Boundedness getBoundedness() {
      return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<String, FakeSplit> createReader(SourceReaderContext readerContext) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SplitEnumerator<FakeSplit, String> createEnumerator(
        SplitEnumeratorContext<FakeSplit> context) {
      return enumerator;
    }

    @Override
    public SplitEnumerator<FakeSplit, String> restoreEnumerator(
        SplitEnumeratorContext<FakeSplit> context, String checkpoint) {
      enumerator.calls.add("restore " + checkpoint);
      return enumerator;
    }

    @Override
    public @Nullable SimpleVersionedSerializer<FakeSplit> getSplitSerializer() {
      return null;
    }

    @Override
    public @Nullable SimpleVersionedSerializer<String> getEnumeratorCheckpointSerializer() {
      return null;
    }

    @Override
    public TypeInformation<String> getProducedType() {
      return Types.STRING;
    }
  }

  /** Runs coordinator-thread work at once and keeps what it threw; polls on demand. */
  static final class FakeContext implements SplitEnumeratorContext<FakeSplit> {
    final List<Throwable> failures = new ArrayList<>();
    final List<Callable<?>> periodic = new ArrayList<>();

    void poll() {
      for (Callable<?> callable : periodic) {
        try {
          callable.call();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
      try {
        runnable.run();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }

    @Override
    public <T> void callAsync(
        Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
      periodic.add(callable);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int currentParallelism() {
      return 2;
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
      return Map.of();
    }

    @Override
    public void assignSplits(SplitsAssignment<FakeSplit> newSplitAssignments) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
      throw new UnsupportedOperationException();
    }
  }
}
