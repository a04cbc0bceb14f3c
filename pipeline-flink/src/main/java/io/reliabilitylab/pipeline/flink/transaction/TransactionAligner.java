package io.reliabilitylab.pipeline.flink.transaction;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Holds each source transaction's changes in its {@link TransactionBuffer} and forwards them
 * together, so a checkpoint barrier, and the sinks' commit on it, never falls inside a transaction.
 * What it holds at a checkpoint is in the checkpoint: a restored job's source resumes inside the
 * transaction, and its remaining changes join the held ones. Runs at parallelism 1, right behind
 * the source, whose change-log reader is one ordered stream; fences are dropped here.
 */
@API(status = EXPERIMENTAL)
public final class TransactionAligner extends RichFlatMapFunction<ChangeEnvelope, ChangeEnvelope>
    implements CheckpointedFunction {

  private static final long serialVersionUID = 1L;

  /** The operator's uid: its state must map back to it on every restore. */
  public static final String UID = "transaction-aligner";

  private transient @Nullable TransactionBuffer buffer;
  private transient @Nullable ListState<ChangeEnvelope> heldState;

  public TransactionAligner() {}

  @Override
  public void flatMap(ChangeEnvelope envelope, Collector<ChangeEnvelope> out) {
    buffer().accept(envelope).forEach(out::collect);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    ListState<ChangeEnvelope> state = heldState;
    if (state != null) {
      state.update(buffer().held());
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    buffer = new TransactionBuffer();
    heldState =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>("held", TypeInformation.of(ChangeEnvelope.class)));
    if (context.isRestored()) {
      buffer.restore(heldState.get());
    }
  }

  private TransactionBuffer buffer() {
    if (buffer == null) {
      buffer = new TransactionBuffer();
    }
    return buffer;
  }
}
