package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One way a pipeline breaks the {@link OrdersFixtures standard history}, applied to the actual
 * tables while the expected side stays faithful. Each names the key or event it breaks.
 *
 * <p>{@code LabeledContext broken = StandardMutation.LOST_DELETE.context(AT_LEAST_ONCE);}
 */
@API(status = EXPERIMENTAL)
public enum StandardMutation {
  /** The last update of order 1 ({@code u:12}) never reached the changelog. */
  DROPPED_EVENT("a dropped changelog event: u:12 of order 1 is missing") {
    @Override
    List<ChangeEvent> changelog() {
      return without(ChangeOp.UPDATE, 12);
    }
  },

  /** An update ({@code u:4} of order 1) is in the changelog twice: wrong under exactly-once. */
  DUPLICATED_EVENT(
      "a duplicated changelog event: u:4 of order 1 is there twice",
      EnumSet.of(DeliverySemantics.EXACTLY_ONCE)) {
    @Override
    List<ChangeEvent> changelog() {
      List<ChangeEvent> events = new ArrayList<>(OrdersFixtures.changes());
      events.add(OrdersFixtures.change(ChangeOp.UPDATE, 4));
      return events;
    }
  },

  /** The two updates of order 1 ({@code u:4}, {@code u:12}) traded source positions. */
  SWAPPED_UPDATES("two updates of one key swapped: u:4 and u:12 of order 1 traded positions") {
    @Override
    List<ChangeEvent> changelog() {
      ChangeEvent first = OrdersFixtures.change(ChangeOp.UPDATE, 4);
      ChangeEvent second = OrdersFixtures.change(ChangeOp.UPDATE, 12);
      List<ChangeEvent> events = new ArrayList<>();
      for (ChangeEvent event : OrdersFixtures.changes()) {
        if (event.equals(first)) {
          events.add(movedTo(first, second));
        } else if (event.equals(second)) {
          events.add(movedTo(second, first));
        } else {
          events.add(event);
        }
      }
      return events;
    }
  },

  /** The delete of order 5 ({@code d:11}) was lost: the row stays and the changelog lacks it. */
  LOST_DELETE("a lost delete: order 5 is still in the current table and d:11 is missing") {
    @Override
    List<Row> current() {
      List<Row> rows = new ArrayList<>(OrdersFixtures.currentRows());
      rows.add(OrdersFixtures.change(ChangeOp.CREATE, 11).row());
      return rows;
    }

    @Override
    List<ChangeEvent> changelog() {
      return without(ChangeOp.DELETE, 11);
    }
  },

  /** The current table holds order 1 as of {@code u:4} (paid), not {@code u:12} (shipped). */
  STALE_UPDATE("a stale update in the current table: order 1 holds u:4 instead of u:12") {
    @Override
    List<Row> current() {
      return replacing(1, OrdersFixtures.change(ChangeOp.UPDATE, 4).row());
    }
  },

  /** Order 3's {@code amount_cents} in the current table is off by one. */
  CORRUPTED_CURRENT_COLUMN("a corrupted column in the current table: amount_cents of order 3") {
    @Override
    List<Row> current() {
      Row row = OrdersFixtures.change(ChangeOp.UPDATE, 7).row();
      return replacing(3, row.with("amount_cents", (Long) row.get("amount_cents") + 1));
    }
  },

  /** The row image of {@code u:6}, an earlier version of order 3, has a wrong amount. */
  CORRUPTED_CHANGELOG_VERSION(
      "a corrupted column of an earlier changelog version: amount_cents of u:6 of order 3") {
    @Override
    List<ChangeEvent> changelog() {
      ChangeEvent original = OrdersFixtures.change(ChangeOp.UPDATE, 6);
      Row row = original.row();
      ChangeEvent corrupted =
          new ChangeEvent(
              original.op(),
              original.eventId(),
              original.beforeEventId(),
              row.with("amount_cents", (Long) row.get("amount_cents") + 1),
              original.position(),
              original.sourceTimestamp());
      List<ChangeEvent> events = new ArrayList<>();
      for (ChangeEvent event : OrdersFixtures.changes()) {
        events.add(event.equals(original) ? corrupted : event);
      }
      return events;
    }
  },

  /** Order 20 (the new key of the primary-key update) is missing from the current table. */
  MISSING_CURRENT_ROW("a row missing from the current table: order 20") {
    @Override
    List<Row> current() {
      List<Row> rows = new ArrayList<>(OrdersFixtures.currentRows());
      rows.removeIf(row -> row.key().equals(RowKey.of(20L)));
      return rows;
    }
  },

  /**
   * Order 1 is in the current table twice, as {@code u:12} and {@code u:4}: a delete not applied.
   */
  DUPLICATE_CURRENT_KEY(
      "a key held twice in the current table: order 1 as u:12 and as u:4 (an equality delete"
          + " not applied)") {
    @Override
    List<Row> current() {
      List<Row> rows = new ArrayList<>(OrdersFixtures.currentRows());
      rows.add(OrdersFixtures.change(ChangeOp.UPDATE, 4).row());
      return rows;
    }
  };

  private final String description;
  private final Set<DeliverySemantics> semantics;

  StandardMutation(String description) {
    this(description, EnumSet.allOf(DeliverySemantics.class));
  }

  StandardMutation(String description, Set<DeliverySemantics> semantics) {
    this.description = description;
    this.semantics = semantics;
  }

  /** What is broken, naming the key or event. */
  public String description() {
    return description;
  }

  /** The semantics under which this is a defect (a duplicate is allowed at-least-once). */
  public Set<DeliverySemantics> semantics() {
    return EnumSet.copyOf(semantics);
  }

  /** The actual current table after this mutation. */
  List<Row> current() {
    return OrdersFixtures.currentRows();
  }

  /** The actual changelog after this mutation. */
  List<ChangeEvent> changelog() {
    return OrdersFixtures.changes();
  }

  /**
   * A context with the faithful expected side and the broken actual side.
   *
   * @throws IllegalArgumentException when this is no defect under {@code semantics}
   */
  public LabeledContext context(DeliverySemantics semantics) {
    if (!this.semantics.contains(semantics)) {
      throw new IllegalArgumentException(
          name() + " is no defect under " + semantics + "; use one of " + this.semantics);
    }
    return LabeledContext.of(
        description + " (" + StandardContexts.label(semantics) + ")",
        OrdersFixtures.context(semantics, current(), changelog()).build());
  }

  private static List<ChangeEvent> without(ChangeOp op, long eventId) {
    ChangeEvent dropped = OrdersFixtures.change(op, eventId);
    List<ChangeEvent> events = new ArrayList<>(OrdersFixtures.changes());
    events.remove(dropped);
    return events;
  }

  private static List<Row> replacing(long orderId, Row replacement) {
    List<Row> rows = new ArrayList<>();
    for (Row row : OrdersFixtures.currentRows()) {
      rows.add(row.key().equals(RowKey.of(orderId)) ? replacement : row);
    }
    return rows;
  }

  private static ChangeEvent movedTo(ChangeEvent event, ChangeEvent place) {
    return new ChangeEvent(
        event.op(),
        event.eventId(),
        event.beforeEventId(),
        event.row(),
        place.position(),
        place.sourceTimestamp());
  }
}
