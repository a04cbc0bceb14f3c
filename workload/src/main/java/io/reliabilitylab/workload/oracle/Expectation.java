package io.reliabilitylab.workload.oracle;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.RowSetDigest;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * What a correct pipeline produces for a workload, as computed by the {@link Oracle}: the current
 * rows in key order and the changelog in source-position order.
 */
@API(status = EXPERIMENTAL)
public final class Expectation {

  private final TableSchema schema;
  private final List<Row> initialRows;
  private final List<Row> currentRows;
  private final List<ChangeEvent> events;
  private final int[] transactionEnds;

  Expectation(
      TableSchema schema,
      List<Row> initialRows,
      List<Row> currentRows,
      List<ChangeEvent> events,
      int[] transactionEnds) {
    this.schema = schema;
    this.initialRows = List.copyOf(initialRows);
    this.currentRows = List.copyOf(currentRows);
    this.events = List.copyOf(events);
    this.transactionEnds = transactionEnds.clone();
  }

  /** The schema of the rows and row images. */
  public TableSchema schema() {
    return schema;
  }

  /** Where each transaction's events end in {@link #events()}, as a copy. */
  int[] transactionEnds() {
    return transactionEnds.clone();
  }

  /** How many transactions the expectation covers. */
  public int transactions() {
    return transactionEnds.length;
  }

  /** The rows present before the first transaction, in key order. */
  public List<Row> initialRows() {
    return initialRows;
  }

  /** The expected current rows, in key order. */
  public List<Row> currentRows() {
    return currentRows;
  }

  /** The expected current rows as a row set, for a check context. */
  public RowSet current() {
    return RowSet.of(
        schema,
        "oracle: " + schema.name() + " after " + transactions() + " transactions",
        currentRows);
  }

  /** The expected changelog envelopes, in source-position order. */
  public List<ChangeEvent> events() {
    return events;
  }

  /** The expected changelog, for a check context. */
  public Changelog changelog() {
    return Changelog.of(
        schema,
        "oracle: " + schema.name() + " changelog of " + transactions() + " transactions",
        events);
  }

  /** SHA-256 of the expected current rows in canonical form (see {@link RowSetDigest}). */
  public String currentDigest() {
    RowSetDigest digest = new RowSetDigest();
    currentRows.forEach(digest::add);
    return digest.hex();
  }

  /** The last envelope, whose arrival in the changelog means the pipeline has caught up. */
  public Optional<ChangeEvent> lastEvent() {
    return events.isEmpty() ? Optional.empty() : Optional.of(events.get(events.size() - 1));
  }

  /**
   * The delete envelopes after the last insert or update, in order: they write no event id of their
   * own, so catch-up looks for them by operation and the deleted image's event id.
   */
  public List<ChangeEvent> trailingDeletes() {
    int first = events.size();
    while (first > 0 && events.get(first - 1).op() == ChangeOp.DELETE) {
      first--;
    }
    return List.copyOf(events.subList(first, events.size()));
  }

  /** The largest event id written by an insert or update, if any. */
  public OptionalLong lastWrittenEventId() {
    long last = Long.MIN_VALUE;
    for (ChangeEvent event : events) {
      if (event.op() != ChangeOp.DELETE) {
        last = Math.max(last, event.eventId());
      }
    }
    return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
  }

  /**
   * The expectation after only the first {@code count} transactions: the state a pipeline must
   * reach when a run stops part way (before a fault, at a baseline check).
   */
  public Expectation afterTransactions(int count) {
    if (count < 0 || count > transactionEnds.length) {
      throw new IllegalArgumentException(
          "Cannot take the first "
              + count
              + " transactions: the expectation covers "
              + transactionEnds.length);
    }
    int end = count == 0 ? 0 : transactionEnds[count - 1];
    List<ChangeEvent> prefix = events.subList(0, end);
    TreeMap<RowKey, Row> table = new TreeMap<>();
    for (Row row : initialRows) {
      table.put(row.key(), row);
    }
    for (ChangeEvent event : prefix) {
      if (event.op() == ChangeOp.DELETE) {
        table.remove(event.key());
      } else {
        table.put(event.key(), event.row());
      }
    }
    int[] ends = new int[count];
    System.arraycopy(transactionEnds, 0, ends, 0, count);
    return new Expectation(schema, initialRows, new ArrayList<>(table.values()), prefix, ends);
  }

  @Override
  public String toString() {
    return "Expectation["
        + transactions()
        + " transactions, "
        + currentRows.size()
        + " current rows, "
        + events.size()
        + " changelog events]";
  }
}
