package io.reliabilitylab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrdersFixturesTest {

  @Test
  void theHistoryLeavesOrders1And3And4And20() {
    assertThat(OrdersFixtures.currentRows())
        .extracting(Row::key)
        .containsExactly(RowKey.of(1L), RowKey.of(3L), RowKey.of(4L), RowKey.of(20L));
    assertThat(OrdersFixtures.currentRows())
        .extracting(Row::eventId)
        .containsExactly(12L, 7L, 10L, 8L);
  }

  @Test
  void theHistoryHasEveryKindOfChangeTheLabModels() {
    List<ChangeEvent> changes = OrdersFixtures.changes();
    assertThat(changes)
        .extracting(ChangeEvent::op)
        .contains(ChangeOp.CREATE, ChangeOp.UPDATE, ChangeOp.DELETE);
    // two changes to order 3 in one transaction, ordered by row index
    ChangeEvent paid = OrdersFixtures.change(ChangeOp.UPDATE, 6);
    ChangeEvent packed = OrdersFixtures.change(ChangeOp.UPDATE, 7);
    assertThat(paid.position().offset()).isEqualTo(packed.position().offset());
    assertThat(paid.position()).isLessThan(packed.position());
    assertThat(packed.beforeEventId()).isEqualTo(6L);
    // the primary-key update 2 -> 20 is d + c in one transaction, keeping the business key
    ChangeEvent oldKey = OrdersFixtures.change(ChangeOp.DELETE, 5);
    ChangeEvent newKey = OrdersFixtures.change(ChangeOp.CREATE, 8);
    assertThat(oldKey.position().offset()).isEqualTo(newKey.position().offset());
    assertThat(newKey.row().get("business_key")).isEqualTo("BK-2");
    // a delete then a re-insert of order 4
    assertThat(changes.stream().filter(e -> e.key().equals(RowKey.of(4L))))
        .extracting(ChangeEvent::identity)
        .containsExactly("c:9", "d:9", "c:10");
    // positions are unique and increasing in source order
    for (int i = 1; i < changes.size(); i++) {
      assertThat(changes.get(i - 1).position()).isLessThan(changes.get(i).position());
    }
  }

  @Test
  void aFaithfulContextHoldsTheSameRowsOnBothSidesInAnotherOrder() {
    CheckContext context = OrdersFixtures.faithful(DeliverySemantics.EXACTLY_ONCE).build();
    List<Row> expected = read(context.expectedCurrent().orElseThrow());
    List<Row> actual = read(context.actualCurrent().orElseThrow());
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected).isNotEqualTo(expected);
    assertThat(context.actualCurrent().orElseThrow().schema().name()).isEqualTo("orders_current");
    assertThat(context.checkpointId()).contains(OrdersFixtures.CHECKPOINT_ID);
  }

  @Test
  void everyMutationChangesTheActualSideAndNothingElse() {
    CheckContext faithful = OrdersFixtures.faithful(DeliverySemantics.EXACTLY_ONCE).build();
    for (StandardMutation mutation : StandardMutation.values()) {
      CheckContext broken = mutation.context(DeliverySemantics.EXACTLY_ONCE).context();
      boolean currentDiffers =
          !read(broken.actualCurrent().orElseThrow())
              .equals(read(faithful.actualCurrent().orElseThrow()));
      boolean changelogDiffers = !events(broken).equals(events(faithful));
      assertThat(currentDiffers || changelogDiffers).as(mutation.name()).isTrue();
      assertThat(read(broken.expectedCurrent().orElseThrow()))
          .as(mutation.name())
          .isEqualTo(OrdersFixtures.currentRows());
    }
  }

  @Test
  void aDuplicateIsNoDefectUnderAtLeastOnce() {
    assertThat(StandardMutation.DUPLICATED_EVENT.semantics())
        .containsExactly(DeliverySemantics.EXACTLY_ONCE);
    assertThatThrownBy(
            () -> StandardMutation.DUPLICATED_EVENT.context(DeliverySemantics.AT_LEAST_ONCE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no defect under AT_LEAST_ONCE");
  }

  @Test
  void everyStandardContextHasItsOwnLabel() {
    List<LabeledContext> all = new ArrayList<>(StandardContexts.faithful());
    all.addAll(StandardContexts.broken());
    all.addAll(StandardContexts.partial());
    all.add(StandardContexts.redeliveredAtLeastOnce());
    Set<String> labels = new HashSet<>();
    for (LabeledContext context : all) {
      assertThat(labels.add(context.label())).as(context.label()).isTrue();
    }
    assertThat(StandardContexts.broken()).hasSize(2 * StandardMutation.values().length - 1);
  }

  @Test
  void theFoldOfTheSwappedChangelogLeavesTheStaleVersion() {
    CheckContext swapped =
        StandardMutation.SWAPPED_UPDATES.context(DeliverySemantics.EXACTLY_ONCE).context();
    List<Row> folded = OrdersFixtures.fold(events(swapped));
    assertThat(folded.get(0).eventId()).isEqualTo(4L);
  }

  private static List<Row> read(RowSet rows) {
    List<Row> list = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      iterator.forEachRemaining(list::add);
    }
    return list;
  }

  private static List<ChangeEvent> events(CheckContext context) {
    List<ChangeEvent> list = new ArrayList<>();
    try (CloseableIterator<ChangeEvent> iterator = context.actualChangelog().orElseThrow().open()) {
      iterator.forEachRemaining(list::add);
    }
    return list;
  }
}
