package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A small, consistent history of the lab's {@code orders} table, built with SPI types only, from
 * which the kit's standard contexts are made; plugin authors use it to build their own.
 *
 * <p>The history, one source transaction per line (event ids in brackets):
 *
 * <pre>
 *  1  c order 1 [1]
 *  2  c order 2 [2]
 *  3  c order 3 [3]
 *  4  u order 1 paid [4]
 *  5  u order 2 paid [5]
 *  6  u order 3 paid [6], u order 3 packed [7]   two changes to one key in one transaction
 *  7  d order 2 [5], c order 20 [8]              a primary-key update 2 -> 20
 *  8  c order 4 [9]
 *  9  d order 4 [9]                              a delete
 * 10  c order 4 [10]                             a re-insert of the deleted key
 * 11  c order 5 [11]
 * 12  u order 1 shipped [12]
 * 13  d order 5 [11]                             a delete that stays
 * </pre>
 *
 * It leaves orders 1, 3, 4 and 20 in the current table. Build a context from it:
 *
 * <pre>{@code
 * CheckContext faithful = OrdersFixtures.faithful(DeliverySemantics.EXACTLY_ONCE).build();
 * List<Row> current = new ArrayList<>(OrdersFixtures.currentRows());
 * current.removeIf(row -> row.key().equals(RowKey.of(20L)));
 * CheckContext broken =
 *     OrdersFixtures.context(DeliverySemantics.EXACTLY_ONCE, current, OrdersFixtures.changes())
 *         .build();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class OrdersFixtures {

  /** The source table, as the oracle sees it. */
  public static final TableSchema SOURCE = TableSchema.ORDERS;

  /** The sink's current table. */
  public static final TableSchema CURRENT = TableSchema.ORDERS.withName("orders_current");

  /** The sink's changelog table. */
  public static final TableSchema CHANGELOG = TableSchema.ORDERS.withName("orders_changelog");

  /** The checkpoint at which the fixture's actual tables are said to be read. */
  public static final long CHECKPOINT_ID = 7;

  /** The binlog file every fixture position is in. */
  public static final String BINLOG = "mysql-bin.000001";

  private static final Instant START = Instant.parse("2026-01-01T00:00:00.000001Z");

  private static final List<ChangeEvent> CHANGES = new History().build();

  private OrdersFixtures() {}

  /** The oracle's changelog of the standard history, in source order. */
  public static List<ChangeEvent> changes() {
    return CHANGES;
  }

  /** The current table the history leaves, in key order. */
  public static List<Row> currentRows() {
    return fold(CHANGES);
  }

  /** The change with this op and event id, e.g. {@code change(ChangeOp.UPDATE, 12)}. */
  public static ChangeEvent change(ChangeOp op, long eventId) {
    return CHANGES.stream()
        .filter(event -> event.op() == op && event.eventId() == eventId)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "The standard history has no " + op.code() + ":" + eventId));
  }

  /** A row of the {@code orders} table in the source schema. */
  public static Row order(
      long orderId,
      long customerId,
      long amountCents,
      String status,
      long eventId,
      Instant updatedAt) {
    return SOURCE.row(
        orderId,
        "BK-" + orderId,
        customerId,
        amountCents,
        status,
        eventId,
        (int) (orderId % 7),
        updatedAt);
  }

  /**
   * Replays change events in source-position order into the rows they leave ({@code r}, {@code c},
   * {@code u} put the row image, {@code d} removes the key), in key order.
   */
  public static List<Row> fold(List<ChangeEvent> events) {
    List<ChangeEvent> ordered = new ArrayList<>(events);
    ordered.sort(Comparator.comparing(ChangeEvent::position));
    Map<RowKey, Row> rows = new TreeMap<>();
    for (ChangeEvent event : ordered) {
      if (event.op() == ChangeOp.DELETE) {
        rows.remove(event.key());
      } else {
        rows.put(event.key(), event.row());
      }
    }
    return List.copyOf(rows.values());
  }

  /**
   * An in-memory row set of {@code rows} re-labelled as {@code table}, read in a scrambled but
   * fixed order, since a sink like Iceberg returns rows unsorted and a check must sort itself.
   */
  public static RowSet rowSet(TableSchema table, List<Row> rows) {
    List<Row> relabelled = new ArrayList<>(rows.size());
    for (Row row : readOrder(rows)) {
      relabelled.add(row.inTable(table));
    }
    return RowSet.of(table, "fixture " + table.name() + " (" + rows.size() + " rows)", relabelled);
  }

  /** An in-memory changelog of {@code events} re-labelled as {@code table}, read scrambled. */
  public static Changelog changelog(TableSchema table, List<ChangeEvent> events) {
    List<ChangeEvent> relabelled = new ArrayList<>(events.size());
    for (ChangeEvent event : readOrder(events)) {
      relabelled.add(
          new ChangeEvent(
              event.op(),
              event.eventId(),
              event.beforeEventId(),
              event.row().inTable(table),
              event.position(),
              event.sourceTimestamp()));
    }
    return Changelog.of(
        table, "fixture " + table.name() + " (" + events.size() + " events)", relabelled);
  }

  /**
   * A context whose expected side is the standard history and whose actual side is what you pass:
   * all four tables and {@link #CHECKPOINT_ID} are set.
   */
  public static CheckContext.Builder context(
      DeliverySemantics semantics, List<Row> actualCurrent, List<ChangeEvent> actualChangelog) {
    Objects.requireNonNull(semantics, "semantics");
    return CheckContext.builder(semantics)
        .expectedCurrent(RowSet.of(SOURCE, "oracle orders", currentRows()))
        .expectedChangelog(Changelog.of(SOURCE, "oracle changelog of orders", CHANGES))
        .actualCurrent(rowSet(CURRENT, actualCurrent))
        .actualChangelog(changelog(CHANGELOG, actualChangelog))
        .checkpointId(CHECKPOINT_ID);
  }

  /** A context where the pipeline wrote exactly what the oracle expects. */
  public static CheckContext.Builder faithful(DeliverySemantics semantics) {
    return context(semantics, currentRows(), CHANGES);
  }

  // Odd positions first, then even ones backwards: no key order and no source order survives.
  private static <T> List<T> readOrder(List<T> items) {
    List<T> order = new ArrayList<>(items.size());
    for (int i = 1; i < items.size(); i += 2) {
      order.add(items.get(i));
    }
    for (int i = (items.size() - 1) / 2 * 2; i >= 0; i -= 2) {
      order.add(items.get(i));
    }
    return order;
  }

  /** Writes the history the way the source's binlog would record it. */
  private static final class History {
    private final List<ChangeEvent> events = new ArrayList<>();
    private final Map<Long, Row> rows = new TreeMap<>();
    private long transaction;
    private int rowIndex;

    List<ChangeEvent> build() {
      begin();
      create(1, 101, 1500, "created", 1);
      begin();
      create(2, 102, 2500, "created", 2);
      begin();
      create(3, 103, 3500, "created", 3);
      begin();
      update(1, "paid", 1500, 4);
      begin();
      update(2, "paid", 2500, 5);
      begin();
      update(3, "paid", 3500, 6);
      update(3, "packed", 3600, 7);
      begin();
      Row moved = delete(2);
      emit(
          ChangeOp.CREATE,
          8,
          null,
          SOURCE.row(
              20L,
              moved.get("business_key"),
              moved.get("customer_id"),
              moved.get("amount_cents"),
              moved.get("status"),
              8L,
              moved.get("seed"),
              now()));
      begin();
      create(4, 104, 4500, "created", 9);
      begin();
      delete(4);
      begin();
      create(4, 104, 4700, "created", 10);
      begin();
      create(5, 105, 5500, "created", 11);
      begin();
      update(1, "shipped", 1500, 12);
      begin();
      delete(5);
      return List.copyOf(events);
    }

    private void begin() {
      transaction++;
      rowIndex = 0;
    }

    private Instant now() {
      return START.plusSeconds(transaction);
    }

    private void create(long orderId, long customerId, long amountCents, String status, long id) {
      emit(ChangeOp.CREATE, id, null, order(orderId, customerId, amountCents, status, id, now()));
    }

    private void update(long orderId, String status, long amountCents, long id) {
      Row before = Objects.requireNonNull(rows.get(orderId), "no row to update");
      Row after =
          before
              .with("status", status)
              .with("amount_cents", amountCents)
              .with("event_id", id)
              .with("updated_at", now());
      emit(ChangeOp.UPDATE, id, before.eventId(), after);
    }

    private Row delete(long orderId) {
      Row before = Objects.requireNonNull(rows.get(orderId), "no row to delete");
      long id = Objects.requireNonNull(before.eventId());
      emit(ChangeOp.DELETE, id, id, before);
      return before;
    }

    private void emit(ChangeOp op, long eventId, @Nullable Long beforeEventId, Row row) {
      events.add(
          new ChangeEvent(
              op,
              eventId,
              beforeEventId,
              row,
              SourcePosition.of(BINLOG, 1000 * transaction, rowIndex++),
              now()));
      long orderId = (Long) Objects.requireNonNull(row.get("order_id"));
      if (op == ChangeOp.DELETE) {
        rows.remove(orderId);
      } else {
        rows.put(orderId, row);
      }
    }
  }
}
