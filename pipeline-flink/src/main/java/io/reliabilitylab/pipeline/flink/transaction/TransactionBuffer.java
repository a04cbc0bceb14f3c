package io.reliabilitylab.pipeline.flink.transaction;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The changes of the source transaction in progress, released together once the change log shows
 * the transaction complete: when a change of another transaction arrives, or a {@linkplain
 * ChangeEnvelope#isFence() fence} (the change log holds a transaction whole, in its commit order,
 * so anything read after a transaction's change was written after the transaction committed). A
 * snapshot read, which belongs to no transaction, releases what is held and passes.
 */
@API(status = EXPERIMENTAL)
public final class TransactionBuffer {

  private final List<ChangeEnvelope> held = new ArrayList<>();

  /** An empty buffer; it holds a transaction whole, however large (in the job's state). */
  public TransactionBuffer() {}

  /** Takes one envelope; returns, in change-log order, those released now. */
  public List<ChangeEnvelope> accept(ChangeEnvelope envelope) {
    List<ChangeEnvelope> released = new ArrayList<>();
    if (envelope.isFence() || envelope.transaction().isEmpty()) {
      release(released);
      if (!envelope.isFence()) {
        released.add(envelope);
      }
      return released;
    }
    if (!held.isEmpty() && !held.get(0).transaction().equals(envelope.transaction())) {
      release(released);
    }
    held.add(envelope);
    return released;
  }

  /** What is held now, for a checkpoint. */
  public List<ChangeEnvelope> held() {
    return List.copyOf(held);
  }

  /** Holds again what a checkpoint held, ahead of anything accepted since. */
  public void restore(Iterable<ChangeEnvelope> envelopes) {
    List<ChangeEnvelope> restored = new ArrayList<>();
    envelopes.forEach(restored::add);
    held.addAll(0, restored);
  }

  private void release(List<ChangeEnvelope> released) {
    released.addAll(held);
    held.clear();
  }
}
