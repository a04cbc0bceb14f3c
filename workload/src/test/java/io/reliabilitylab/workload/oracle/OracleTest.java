package io.reliabilitylab.workload.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSetDigest;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OracleTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:01Z");

  @Test
  void aPrimaryKeyUpdateIsADeleteOfTheOldKeyAndACreateOfTheNew() {
    Row first = row(1, 1, "created");
    Row moved = row(2, 2, "created");
    Expectation expected =
        Oracle.expect(
            workload(
                List.of(SourceChange.insert(first)), List.of(SourceChange.update(first, moved))));

    assertThat(expected.events())
        .extracting(ChangeEvent::identity)
        .containsExactly("c:1", "d:1", "c:2");
    ChangeEvent delete = expected.events().get(1);
    ChangeEvent create = expected.events().get(2);
    assertThat(delete.row()).isEqualTo(first);
    assertThat(delete.position()).isEqualTo(SourcePosition.of("oracle", 1, 0));
    assertThat(create.row()).isEqualTo(moved);
    assertThat(create.beforeEventId()).isNull();
    assertThat(create.position()).isEqualTo(SourcePosition.of("oracle", 1, 1));
    assertThat(expected.currentRows()).containsExactly(moved);
  }

  @Test
  void aDeleteIsIdentifiedByTheEventIdOfTheDeletedRow() {
    Row inserted = row(7, 1, "created");
    Row paid = row(7, 2, "paid");
    Expectation expected =
        Oracle.expect(
            workload(
                List.of(SourceChange.insert(inserted), SourceChange.update(inserted, paid)),
                List.of(SourceChange.delete(paid))));

    assertThat(expected.events())
        .extracting(ChangeEvent::identity)
        .containsExactly("c:1", "u:2", "d:2");
    assertThat(expected.events().get(1).beforeEventId()).isEqualTo(1L);
    ChangeEvent delete = expected.events().get(2);
    assertThat(delete.eventId()).isEqualTo(2L);
    assertThat(delete.beforeEventId()).isEqualTo(2L);
    assertThat(delete.row()).isEqualTo(paid);
    assertThat(expected.currentRows()).isEmpty();
  }

  @Test
  void theDeletesAfterTheLastWrittenEventAreWhatCatchUpMustAlsoSee() {
    Row first = row(7, 1, "created");
    Row second = row(8, 2, "created");
    Expectation endsWithDeletes =
        Oracle.expect(
            workload(
                List.of(SourceChange.insert(first), SourceChange.insert(second)),
                List.of(SourceChange.delete(first), SourceChange.delete(second))));
    Expectation endsWithAWrite =
        Oracle.expect(
            workload(
                List.of(SourceChange.insert(first)),
                List.of(SourceChange.delete(first), SourceChange.insert(second))));

    // the last written event id (2) is in the changelog long before the deletes that follow it
    assertThat(endsWithDeletes.lastWrittenEventId()).hasValue(2L);
    assertThat(endsWithDeletes.trailingDeletes())
        .extracting(ChangeEvent::identity)
        .containsExactly("d:1", "d:2");
    assertThat(endsWithAWrite.trailingDeletes()).isEmpty();
  }

  @Test
  void aDeletedKeyCanBeInsertedAgain() {
    Row first = row(3, 1, "created");
    Row again = row(3, 2, "created");
    Expectation expected =
        Oracle.expect(
            workload(
                List.of(SourceChange.insert(first)),
                List.of(SourceChange.delete(first)),
                List.of(SourceChange.insert(again))));

    assertThat(expected.events())
        .extracting(ChangeEvent::identity)
        .containsExactly("c:1", "d:1", "c:2");
    assertThat(expected.currentRows()).containsExactly(again);
  }

  @Test
  void severalChangesToOneKeyInOneTransactionHaveIncreasingRowIndexes() {
    Row created = row(5, 1, "created");
    Row paid = row(5, 2, "paid");
    Row packed = row(5, 3, "packed");
    Row reinserted = row(5, 4, "created");
    Expectation expected =
        Oracle.expect(
            workload(
                List.of(
                    SourceChange.insert(created),
                    SourceChange.update(created, paid),
                    SourceChange.update(paid, packed),
                    SourceChange.delete(packed),
                    SourceChange.insert(reinserted))));

    assertThat(expected.events())
        .extracting(ChangeEvent::identity)
        .containsExactly("c:1", "u:2", "u:3", "d:3", "c:4");
    assertThat(expected.events())
        .extracting(event -> event.position().rowIndex())
        .containsExactly(0, 1, 2, 3, 4);
    assertThat(expected.events())
        .extracting(ChangeEvent::position)
        .isSorted()
        .doesNotHaveDuplicates();
    assertThat(expected.events()).extracting(ChangeEvent::sourceTimestamp).containsOnly(T0);
    assertThat(expected.currentRows()).containsExactly(reinserted);
  }

  @Test
  void theCurrentRowsAreTheFoldOfTheChangelog() {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(2_000, 42));
    Expectation expected = Oracle.expect(workload);

    assertThat(expected.events())
        .extracting(ChangeEvent::position)
        .isSorted()
        .doesNotHaveDuplicates();
    assertThat(expected.events()).noneMatch(event -> event.op().code().equals("r"));
    assertThat(fold(List.of(), expected.events())).isEqualTo(expected.currentRows());
    assertThat(expected.currentDigest()).isEqualTo(digest(expected.currentRows()));
    assertThat(expected.lastWrittenEventId()).isEqualTo(workload.lastEventId());
    assertThat(expected.lastEvent()).contains(expected.events().get(expected.events().size() - 1));
    assertThat(read(expected.current().open())).isEqualTo(expected.currentRows());
    assertThat(read(expected.changelog().open())).isEqualTo(expected.events());
  }

  @Test
  void initialRowsAreStateButNotChangelog() {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder().events(500).seed(9).initialRows(40).build());
    Expectation expected = Oracle.expect(workload);

    assertThat(expected.initialRows()).hasSize(40);
    assertThat(expected.events())
        .noneMatch(event -> event.op() == ChangeOp.CREATE && event.eventId() <= 40);
    assertThat(expected.events().get(0).eventId()).isGreaterThan(40);
    assertThat(fold(workload.initialRows(), expected.events())).isEqualTo(expected.currentRows());
  }

  @Test
  void theStateAfterAPrefixMatchesTheOracleOfThatPrefix() {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder().events(1_000).seed(5).initialRows(10).build());
    Expectation expected = Oracle.expect(workload);

    for (int count : new int[] {0, 1, 17, 200, workload.transactions().size()}) {
      Expectation prefix = expected.afterTransactions(count);
      Expectation direct = Oracle.expect(workload.prefix(count));
      assertThat(prefix.transactions()).isEqualTo(count);
      assertThat(prefix.events()).isEqualTo(direct.events());
      assertThat(prefix.currentRows()).isEqualTo(direct.currentRows());
    }
    assertThatThrownBy(() -> expected.afterTransactions(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anInconsistentWorkloadIsRefusedWithThePlace() {
    Row first = row(1, 1, "created");
    Row stale = row(1, 9, "created");

    assertThatThrownBy(
            () ->
                Oracle.expect(
                    workload(
                        List.of(SourceChange.insert(first)),
                        List.of(SourceChange.update(stale, row(1, 10, "paid"))))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("transaction 1")
        .hasMessageContaining("differs from the current row in [event_id]");
    assertThatThrownBy(
            () ->
                Oracle.expect(
                    workload(
                        List.of(
                            SourceChange.insert(first), SourceChange.insert(row(1, 2, "paid"))))))
        .hasMessageContaining("key 1 is already present");
    assertThatThrownBy(
            () ->
                Oracle.expect(
                    workload(
                        List.of(
                            SourceChange.insert(first), SourceChange.insert(row(2, 1, "paid"))))))
        .hasMessageContaining("event id 1 is written twice");
    assertThatThrownBy(() -> Oracle.expect(workload(List.of(SourceChange.delete(first)))))
        .hasMessageContaining("key 1 is not present");
  }

  static Row row(long key, long eventId, String status) {
    return TableSchema.ORDERS.row(key, "ord-" + key, 100L, 1_000L, status, eventId, 0, T0);
  }

  @SafeVarargs
  static Workload workload(List<SourceChange>... transactions) {
    List<SourceTransaction> list = new ArrayList<>();
    for (List<SourceChange> changes : transactions) {
      list.add(new SourceTransaction(list.size(), T0.plusSeconds(list.size()), changes));
    }
    return new Workload(WorkloadConfig.of(0, 0), List.of(), list);
  }

  @Test
  void afterASnapshotTheFirstHalfIsInitialRowsAndOnlyTheRestAreChanges() {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(400, 9));
    int half = workload.transactions().size() / 2;
    Expectation whole = Oracle.expect(workload);
    Expectation afterSnapshot = Oracle.expectAfterSnapshot(workload, half);

    List<Row> prefixRows = read(Oracle.expect(workload.prefix(half)).current().open());
    List<ChangeEvent> events = read(afterSnapshot.changelog().open());
    // One read per preloaded row first, carrying the row's version; then the streamed changes.
    assertThat(events.subList(0, prefixRows.size()))
        .allMatch(e -> e.op() == ChangeOp.READ)
        .extracting(ChangeEvent::row)
        .containsExactlyElementsOf(prefixRows);
    List<ChangeEvent> restEvents = events.subList(prefixRows.size(), events.size());
    assertThat(digest(read(afterSnapshot.current().open())))
        .isEqualTo(digest(read(whole.current().open())))
        .isEqualTo(digest(fold(prefixRows, restEvents)));
    long restChanges =
        workload.transactions().subList(half, workload.transactions().size()).stream()
            .mapToLong(t -> t.changes().size())
            .sum();
    assertThat((long) restEvents.size())
        .isGreaterThanOrEqualTo(restChanges)
        .isLessThan(read(whole.changelog().open()).size());
    assertThat(restEvents).noneMatch(e -> e.op() == ChangeOp.READ);
  }

  /** A fold written here, not taken from the oracle: c and u put the row, d removes the key. */
  private static List<Row> fold(List<Row> initial, List<ChangeEvent> events) {
    TreeMap<Long, Row> table = new TreeMap<>();
    initial.forEach(row -> table.put((Long) row.get("order_id"), row));
    for (ChangeEvent event : events) {
      Long key = (Long) event.row().get("order_id");
      switch (event.op()) {
        case CREATE, UPDATE -> table.put(key, event.row());
        case DELETE -> table.remove(key);
        case READ -> throw new AssertionError("the oracle emits no r events");
      }
    }
    return new ArrayList<>(table.values());
  }

  private static String digest(List<Row> rows) {
    RowSetDigest digest = new RowSetDigest();
    rows.forEach(digest::add);
    return digest.hex();
  }

  private static <T> List<T> read(CloseableIterator<T> iterator) {
    List<T> items = new ArrayList<>();
    try (iterator) {
      iterator.forEachRemaining(items::add);
    }
    return items;
  }
}
