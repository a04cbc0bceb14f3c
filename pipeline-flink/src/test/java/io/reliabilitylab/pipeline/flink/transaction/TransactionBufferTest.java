package io.reliabilitylab.pipeline.flink.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionBufferTest {

  @Test
  void holdsATransactionUntilAnotherBegins() {
    TransactionBuffer buffer = new TransactionBuffer();

    assertThat(buffer.accept(change(1, "bin:100"))).isEmpty();
    assertThat(buffer.accept(change(2, "bin:100"))).isEmpty();
    assertThat(ids(buffer.accept(change(3, "bin:300")))).containsExactly(1L, 2L);
    assertThat(ids(buffer.held())).containsExactly(3L);
  }

  @Test
  void aFenceReleasesWhatIsHeldAndIsDropped() {
    TransactionBuffer buffer = new TransactionBuffer();
    buffer.accept(change(1, "bin:100"));

    assertThat(ids(buffer.accept(ChangeEnvelope.fence("bin", 400, 0)))).containsExactly(1L);
    assertThat(buffer.held()).isEmpty();
    assertThat(buffer.accept(ChangeEnvelope.fence("bin", 500, 0))).isEmpty();
  }

  @Test
  void aSnapshotReadReleasesWhatIsHeldAndPassesBehindIt() {
    TransactionBuffer buffer = new TransactionBuffer();
    buffer.accept(change(1, "bin:100"));

    assertThat(ids(buffer.accept(change(2, "")))).containsExactly(1L, 2L);
    assertThat(buffer.held()).isEmpty();
  }

  @Test
  void aRestoredBufferKeepsItsChangesAheadOfNewOnes() {
    TransactionBuffer before = new TransactionBuffer();
    before.accept(change(1, "bin:100"));
    TransactionBuffer after = new TransactionBuffer();
    after.accept(change(2, "bin:100"));

    after.restore(before.held());

    assertThat(ids(after.accept(change(3, "bin:300")))).containsExactly(1L, 2L);
  }

  private static ChangeEnvelope change(long eventId, String transaction) {
    OrderImage row = new OrderImage(eventId, "bk", 1L, 1L, "created", eventId, 1, 0L);
    return new ChangeEnvelope("c", null, row, "bin", 100 + eventId, 0, null, 0, transaction);
  }

  private static List<Long> ids(List<ChangeEnvelope> envelopes) {
    List<Long> ids = new ArrayList<>();
    envelopes.forEach(envelope -> ids.add(envelope.eventId()));
    return ids;
  }
}
