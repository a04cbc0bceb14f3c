package io.reliabilitylab.harness.controls;

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
import io.reliabilitylab.workload.oracle.Expectation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * What a faithful pipeline would have written for an oracle's expectation, as a reader would see
 * it: the changelog re-positioned into a binlog-like position space and both tables read back in a
 * scrambled order (Iceberg reads are unsorted). Mutations edit the two lists before {@link
 * #context}.
 */
final class PipelineOutput {

  static final TableSchema CURRENT = TableSchema.ORDERS.withName("orders_current");
  static final TableSchema CHANGELOG = TableSchema.ORDERS.withName("orders_changelog");

  final Expectation expectation;
  final List<Row> current;
  final List<ChangeEvent> changelog;

  private PipelineOutput(Expectation expectation, List<Row> current, List<ChangeEvent> changelog) {
    this.expectation = expectation;
    this.current = current;
    this.changelog = changelog;
  }

  /** The faithful output, changelog in position order. */
  static PipelineOutput faithful(Expectation expectation) {
    List<Row> current = new ArrayList<>();
    for (Row row : expectation.currentRows()) {
      current.add(row.inTable(CURRENT));
    }
    List<ChangeEvent> changelog = new ArrayList<>();
    for (ChangeEvent event : expectation.events()) {
      changelog.add(reposition(event));
    }
    return new PipelineOutput(expectation, current, changelog);
  }

  /** An oracle position mapped to a binlog file, offset and row index (a different space). */
  private static ChangeEvent reposition(ChangeEvent event) {
    SourcePosition oracle = event.position();
    SourcePosition binlog =
        new SourcePosition(
            "mysql-bin.000001",
            4 + oracle.offset() * 211,
            oracle.rowIndex(),
            "0-1-" + (oracle.offset() + 1));
    return withPosition(event, binlog, event.row().inTable(CHANGELOG));
  }

  static ChangeEvent withPosition(ChangeEvent event, SourcePosition position, Row row) {
    return new ChangeEvent(
        event.op(), event.eventId(), event.beforeEventId(), row, position, event.sourceTimestamp());
  }

  /** Per key, the changelog's events in position order. */
  Map<RowKey, List<ChangeEvent>> eventsByKey() {
    Map<RowKey, List<ChangeEvent>> byKey = new TreeMap<>();
    List<ChangeEvent> ordered = new ArrayList<>(changelog);
    ordered.sort((a, b) -> a.position().compareTo(b.position()));
    for (ChangeEvent event : ordered) {
      byKey.computeIfAbsent(event.key(), k -> new ArrayList<>()).add(event);
    }
    return byKey;
  }

  /** The current table a sink folding this changelog would hold. */
  List<Row> foldChangelog() {
    Map<RowKey, Row> state = new TreeMap<>();
    List<ChangeEvent> ordered = new ArrayList<>(changelog);
    ordered.sort((a, b) -> a.position().compareTo(b.position()));
    for (ChangeEvent event : ordered) {
      if (event.op() == ChangeOp.DELETE) {
        state.remove(event.key());
      } else {
        state.put(event.key(), event.row().inTable(CURRENT));
      }
    }
    return new ArrayList<>(state.values());
  }

  /** Replaces the current table's row with the same key. */
  void replaceCurrent(Row replacement) {
    for (int i = 0; i < current.size(); i++) {
      if (current.get(i).key().equals(replacement.key())) {
        current.set(i, replacement);
        return;
      }
    }
    throw new IllegalStateException("No current row with key " + replacement.key());
  }

  /** The check context, both tables scrambled with {@code scramble}. */
  CheckContext context(DeliverySemantics semantics, long scramble, Path workDirectory) {
    List<Row> rows = new ArrayList<>(current);
    List<ChangeEvent> events = new ArrayList<>(changelog);
    Collections.shuffle(rows, new Random(scramble));
    Collections.shuffle(events, new Random(~scramble));
    return CheckContext.builder(semantics)
        .expectedCurrent(RowSet.of(TableSchema.ORDERS, "oracle current", expectation.currentRows()))
        .expectedChangelog(
            Changelog.of(TableSchema.ORDERS, "oracle changelog", expectation.events()))
        .actualCurrent(RowSet.of(CURRENT, "orders_current (scrambled)", rows))
        .actualChangelog(Changelog.of(CHANGELOG, "orders_changelog (scrambled)", events))
        .workDirectory(workDirectory)
        .checkpointId(7L)
        .build();
  }
}
