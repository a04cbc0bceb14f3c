package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A small hand-built history of the orders table with its expected changelog and current rows, and
 * the mutations the checks must catch.
 *
 * <pre>
 * order 1: c:1  u:3 (paid)  u:6 (packed)
 * order 2: c:2  u:5 (paid)
 * order 3: c:4  d:4
 * order 4: c:7  u:8 (paid, amount 450)
 * </pre>
 */
final class Fixture {

  static final TableSchema SCHEMA = TableSchema.ORDERS;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  final List<ChangeEvent> events = new ArrayList<>();
  private final Map<Long, Row> current = new TreeMap<>();
  private long nextOffset = 100;

  /** The standard history above. */
  static Fixture standard() {
    return new Fixture()
        .insert(1, 1, "created", 100)
        .insert(2, 2, "created", 200)
        .update(1, 3, "paid", 100)
        .insert(3, 4, "created", 300)
        .update(2, 5, "paid", 200)
        .delete(3)
        .update(1, 6, "packed", 100)
        .insert(4, 7, "created", 400)
        .update(4, 8, "paid", 450);
  }

  static Row row(long orderId, long eventId, String status, long amount) {
    return SCHEMA.row(
        orderId, "bk-" + orderId, orderId % 7, amount, status, eventId, 1, T0.plusSeconds(eventId));
  }

  Fixture insert(long orderId, long eventId, String status, long amount) {
    Row row = row(orderId, eventId, status, amount);
    current.put(orderId, row);
    events.add(new ChangeEvent(ChangeOp.CREATE, eventId, null, row, position(), T0));
    return this;
  }

  Fixture update(long orderId, long eventId, String status, long amount) {
    Row before = current.get(orderId);
    Row row = row(orderId, eventId, status, amount);
    current.put(orderId, row);
    events.add(new ChangeEvent(ChangeOp.UPDATE, eventId, before.eventId(), row, position(), T0));
    return this;
  }

  Fixture delete(long orderId) {
    Row before = current.remove(orderId);
    long id = before.eventId();
    events.add(new ChangeEvent(ChangeOp.DELETE, id, id, before, position(), T0));
    return this;
  }

  private SourcePosition position() {
    return SourcePosition.of("mysql-bin.000001", nextOffset += 10, 0);
  }

  List<Row> currentRows() {
    return List.copyOf(current.values());
  }

  List<ChangeEvent> changelog() {
    return List.copyOf(events);
  }

  /** The event with this op and id. */
  ChangeEvent event(ChangeOp op, long eventId) {
    return events.stream()
        .filter(e -> e.op() == op && e.eventId() == eventId)
        .findFirst()
        .orElseThrow();
  }

  // ---- the actual side: other positions, reversed read order ----

  /**
   * The events as the sink records them: positions in another space (a different log name and
   * offsets) that keeps their order.
   */
  static List<ChangeEvent> asSink(List<ChangeEvent> events) {
    List<ChangeEvent> out = new ArrayList<>();
    for (ChangeEvent e : events) {
      out.add(at(e, SourcePosition.of("sink", e.position().offset() * 3 + 7, 1)));
    }
    return out;
  }

  static ChangeEvent at(ChangeEvent e, SourcePosition position) {
    return new ChangeEvent(
        e.op(), e.eventId(), e.beforeEventId(), e.row(), position, e.sourceTimestamp());
  }

  static ChangeEvent withRow(ChangeEvent e, Row row) {
    return new ChangeEvent(
        e.op(), e.eventId(), e.beforeEventId(), row, e.position(), e.sourceTimestamp());
  }

  static ChangeEvent read(Row row, SourcePosition position) {
    return new ChangeEvent(ChangeOp.READ, row.eventId(), null, row, position, T0);
  }

  /** A list with the element at one index replaced. */
  static <T> List<T> replaced(List<T> list, int index, UnaryOperator<T> change) {
    List<T> copy = new ArrayList<>(list);
    copy.set(index, change.apply(copy.get(index)));
    return copy;
  }

  /** Rows as an unsorted input: reversed, so that no check can rely on read order. */
  static RowSet rows(String description, List<Row> rows) {
    List<Row> reversed = new ArrayList<>(rows);
    Collections.reverse(reversed);
    return RowSet.of(SCHEMA, description, reversed);
  }

  static Changelog log(String description, List<ChangeEvent> events) {
    List<ChangeEvent> reversed = new ArrayList<>(events);
    Collections.reverse(reversed);
    return Changelog.of(SCHEMA, description, reversed);
  }

  /** A row set whose reading fails part way. */
  static RowSet failing(String description) {
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return SCHEMA;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<Row> open() {
        return new CloseableIterator<>() {
          private int served;

          @Override
          public boolean hasNext() {
            return true;
          }

          @Override
          public Row next() {
            if (served++ == 2) {
              throw new IllegalStateException("connection reset by peer");
            }
            return row(served, served, "created", 1);
          }

          @Override
          public void close() {}
        };
      }
    };
  }

  static CheckContext.Builder context(DeliverySemantics semantics, Path workDirectory) {
    return CheckContext.builder(semantics).workDirectory(workDirectory).sampleLimit(50);
  }

  /** A context with the faithful inputs of this fixture on both sides. */
  CheckContext.Builder faithful(DeliverySemantics semantics, Path workDirectory) {
    return context(semantics, workDirectory)
        .expectedCurrent(rows("source orders", currentRows()))
        .actualCurrent(rows("iceberg orders_current", currentRows()))
        .expectedChangelog(log("oracle changelog", changelog()))
        .actualChangelog(log("iceberg orders_changelog", asSink(changelog())));
  }
}
