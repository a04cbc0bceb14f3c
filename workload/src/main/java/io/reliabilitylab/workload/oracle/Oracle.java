package io.reliabilitylab.workload.oracle;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * Applies a workload to an in-memory model of the source table and yields what a correct pipeline
 * must produce: the current rows and the changelog, one envelope per source change.
 *
 * <ul>
 *   <li>an insert is {@code c} with the new row's event id;
 *   <li>an update that keeps the key is one {@code u} whose before event id is the replaced row's;
 *   <li>an update that changes the key is {@code d(old key)} followed by {@code c(new key)};
 *   <li>a delete is {@code d}, identified by the deleted row's event id.
 * </ul>
 *
 * Positions are in the log {@value #LOG}: the offset is the transaction's ordinal and the row index
 * counts envelopes inside the transaction, so that changes of one transaction stay distinct and
 * ordered. The source timestamp is the transaction's commit time. The oracle emits no {@code r}
 * events: the initial rows are read by a snapshot, which the changelog-completeness check judges.
 *
 * <pre>{@code
 * Expectation expected = Oracle.expect(WorkloadGenerator.generate(WorkloadConfig.of(2_000, 42)));
 * RowSet rows = expected.current();
 * Changelog changelog = expected.changelog();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Oracle {

  /** The log name of the oracle's source positions. */
  public static final String LOG = "oracle";

  private Oracle() {}

  /**
   * The expected rows and changelog of a workload. Throws {@link IllegalArgumentException} when the
   * workload is inconsistent: a before image that is not the current row, an insert of a live key,
   * an event id missing or written twice.
   */
  /**
   * What a CDC pipeline that starts after the first {@code preloaded} transactions were written
   * must produce: it reads their result as a snapshot (initial rows, judged by the
   * changelog-completeness check as reads) and streams the rest as changes. The current rows are
   * those of the whole workload; the changelog holds the rest's changes only.
   */
  public static Expectation expectAfterSnapshot(Workload workload, int preloaded) {
    Objects.requireNonNull(workload, "workload");
    if (preloaded < 1) {
      return expect(workload);
    }
    List<Row> snapshot = new ArrayList<>();
    try (CloseableIterator<Row> rows = expect(workload.prefix(preloaded)).current().open()) {
      rows.forEachRemaining(snapshot::add);
    }
    List<SourceTransaction> all = workload.transactions();
    Expectation streamed =
        expect(new Workload(workload.config(), snapshot, all.subList(preloaded, all.size())));
    // The snapshot reads every row once, as an r event carrying the row's version, ahead of the
    // streamed changes: the checks match an actual read to it by op and event id.
    SourceTransaction lastPreloaded = all.get(preloaded - 1);
    List<ChangeEvent> events = new ArrayList<>();
    for (int i = 0; i < snapshot.size(); i++) {
      Row row = snapshot.get(i);
      events.add(
          new ChangeEvent(
              ChangeOp.READ,
              Objects.requireNonNull(row.eventId()),
              null,
              row,
              SourcePosition.of(LOG, lastPreloaded.ordinal(), i),
              lastPreloaded.commitTime()));
    }
    events.addAll(streamed.events());
    int[] ends = streamed.transactionEnds();
    for (int t = 0; t < ends.length; t++) {
      ends[t] += snapshot.size();
    }
    return new Expectation(
        workload.schema(), streamed.initialRows(), streamed.currentRows(), events, ends);
  }

  public static Expectation expect(Workload workload) {
    Objects.requireNonNull(workload, "workload");
    TreeMap<RowKey, Row> table = new TreeMap<>();
    // Only looked up, never iterated.
    Set<Long> written = new HashSet<>();
    for (Row row : workload.initialRows()) {
      requireNew(written, requireEventId(row, () -> "initial rows"), () -> "initial rows");
      if (table.put(row.key(), row) != null) {
        throw new IllegalArgumentException(
            "The workload's initial rows hold key " + row.key() + " twice");
      }
    }
    List<ChangeEvent> events = new ArrayList<>();
    int[] transactionEnds = new int[workload.transactions().size()];
    for (int t = 0; t < workload.transactions().size(); t++) {
      SourceTransaction transaction = workload.transactions().get(t);
      int rowIndex = 0;
      for (SourceChange change : transaction.changes()) {
        Supplier<String> where = () -> "transaction " + transaction.ordinal() + ", " + change;
        if (change instanceof SourceChange.Insert insert) {
          Row after = insert.after();
          requireAbsent(table, after.key(), where);
          requireNew(written, requireEventId(after, where), where);
          table.put(after.key(), after);
        } else if (change instanceof SourceChange.Update update) {
          Row before = update.before();
          Row after = update.after();
          requireCurrent(table, before, where);
          requireEventId(before, where);
          requireNew(written, requireEventId(after, where), where);
          if (update.changesKey()) {
            requireAbsent(table, after.key(), where);
            table.remove(before.key());
          }
          table.put(after.key(), after);
        } else if (change instanceof SourceChange.Delete delete) {
          Row before = delete.before();
          requireCurrent(table, before, where);
          requireEventId(before, where);
          table.remove(before.key());
        }
        rowIndex = addEnvelopes(change, transaction, rowIndex, events);
      }
      transactionEnds[t] = events.size();
    }
    return new Expectation(
        workload.schema(),
        workload.initialRows(),
        new ArrayList<>(table.values()),
        events,
        transactionEnds);
  }

  /**
   * The changelog envelopes {@code transactions} produce, in order, as {@link #expect} gives them:
   * for a part of a workload whose state is not needed, e.g. one phase of a long workload, without
   * holding the envelopes of every transaction before it. Unlike {@link #expect} it does not check
   * the changes against the table's state, so it serves parts of workloads that were generated or
   * checked whole.
   */
  public static List<ChangeEvent> envelopes(List<SourceTransaction> transactions) {
    List<ChangeEvent> events = new ArrayList<>();
    for (SourceTransaction transaction : transactions) {
      int rowIndex = 0;
      for (SourceChange change : transaction.changes()) {
        rowIndex = addEnvelopes(change, transaction, rowIndex, events);
      }
    }
    return events;
  }

  /** Adds {@code change}'s envelopes (a key update: a delete and a create); the next row index. */
  private static int addEnvelopes(
      SourceChange change, SourceTransaction transaction, int rowIndex, List<ChangeEvent> events) {
    Supplier<String> where = () -> "transaction " + transaction.ordinal() + ", " + change;
    if (change instanceof SourceChange.Insert insert) {
      Row after = insert.after();
      events.add(create(after, requireEventId(after, where), transaction, rowIndex));
      return rowIndex + 1;
    }
    if (change instanceof SourceChange.Update update) {
      Row before = update.before();
      Row after = update.after();
      long beforeId = requireEventId(before, where);
      if (update.changesKey()) {
        events.add(delete(before, beforeId, transaction, rowIndex));
        events.add(create(after, requireEventId(after, where), transaction, rowIndex + 1));
        return rowIndex + 2;
      }
      events.add(
          new ChangeEvent(
              ChangeOp.UPDATE,
              requireEventId(after, where),
              beforeId,
              after,
              position(transaction, rowIndex),
              transaction.commitTime()));
      return rowIndex + 1;
    }
    Row before = ((SourceChange.Delete) change).before();
    events.add(delete(before, requireEventId(before, where), transaction, rowIndex));
    return rowIndex + 1;
  }

  private static ChangeEvent create(
      Row after, long eventId, SourceTransaction transaction, int rowIndex) {
    return new ChangeEvent(
        ChangeOp.CREATE,
        eventId,
        null,
        after,
        position(transaction, rowIndex),
        transaction.commitTime());
  }

  private static ChangeEvent delete(
      Row before, long eventId, SourceTransaction transaction, int rowIndex) {
    return new ChangeEvent(
        ChangeOp.DELETE,
        eventId,
        eventId,
        before,
        position(transaction, rowIndex),
        transaction.commitTime());
  }

  private static SourcePosition position(SourceTransaction transaction, int rowIndex) {
    return SourcePosition.of(LOG, transaction.ordinal(), rowIndex);
  }

  private static long requireEventId(Row row, Supplier<String> where) {
    Long eventId = row.eventId();
    if (eventId == null) {
      throw new IllegalArgumentException(
          "Row " + row.key() + " has no event_id (" + where.get() + "): every write sets one");
    }
    return eventId;
  }

  private static void requireNew(Set<Long> written, long eventId, Supplier<String> where) {
    if (!written.add(eventId)) {
      throw new IllegalArgumentException(
          "Inconsistent workload at "
              + where.get()
              + ": event id "
              + eventId
              + " is written twice; every write needs a new event id");
    }
  }

  private static void requireAbsent(
      TreeMap<RowKey, Row> table, RowKey key, Supplier<String> where) {
    if (table.containsKey(key)) {
      throw new IllegalArgumentException(
          "Inconsistent workload at " + where.get() + ": key " + key + " is already present");
    }
  }

  private static void requireCurrent(
      TreeMap<RowKey, Row> table, Row before, Supplier<String> where) {
    Row current = table.get(before.key());
    if (current == null) {
      throw new IllegalArgumentException(
          "Inconsistent workload at " + where.get() + ": key " + before.key() + " is not present");
    }
    if (!current.equals(before)) {
      throw new IllegalArgumentException(
          "Inconsistent workload at "
              + where.get()
              + ": the before image differs from the current row in "
              + current.differingColumns(before));
    }
  }
}
