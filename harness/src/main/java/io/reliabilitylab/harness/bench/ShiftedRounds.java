package io.reliabilitylab.harness.bench;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An unbounded workload for the sustain phase without holding it in memory: one generated round (no
 * initial rows, so it only touches keys it inserts itself), repeated with its keys and event ids
 * shifted past the previous round's, so that every round is valid on top of the ones before.
 */
final class ShiftedRounds {

  static final String KEY = "order_id";
  static final String EVENT_ID = "event_id";

  private final Workload round;
  private final long keyBase;
  private final long keySpan;
  private final long eventSpan;

  /**
   * @param round a workload without initial rows whose event ids start where the table's end
   * @param keyBase added to every key, so that no round meets the table's earlier keys
   */
  ShiftedRounds(Workload round, long keyBase) {
    if (!round.initialRows().isEmpty()) {
      throw new IllegalArgumentException("A repeated round must not have initial rows");
    }
    this.round = round;
    this.keyBase = keyBase;
    long maxKey = 0;
    long minEvent = Long.MAX_VALUE;
    long maxEvent = Long.MIN_VALUE;
    for (SourceTransaction transaction : round.transactions()) {
      for (SourceChange change : transaction.changes()) {
        for (Row row : rows(change)) {
          maxKey = Math.max(maxKey, (Long) Objects.requireNonNull(row.get(KEY)));
          long eventId = Objects.requireNonNull(row.eventId());
          minEvent = Math.min(minEvent, eventId);
          maxEvent = Math.max(maxEvent, eventId);
        }
      }
    }
    this.keySpan = maxKey;
    this.eventSpan = maxEvent < minEvent ? 0 : maxEvent - minEvent + 1;
  }

  /** Changes per round. */
  long changesPerRound() {
    return round.changeCount();
  }

  /** Round {@code index} (0 is the generated round itself, shifted by the key base only). */
  List<SourceTransaction> round(long index) {
    long keyShift = keyBase + index * keySpan;
    long eventShift = index * eventSpan;
    long ordinalShift = index * round.transactions().size();
    List<SourceTransaction> shifted = new ArrayList<>(round.transactions().size());
    for (SourceTransaction transaction : round.transactions()) {
      List<SourceChange> changes = new ArrayList<>(transaction.changes().size());
      for (SourceChange change : transaction.changes()) {
        changes.add(shift(change, keyShift, eventShift));
      }
      shifted.add(
          new SourceTransaction(
              transaction.ordinal() + ordinalShift, transaction.commitTime(), changes));
    }
    return shifted;
  }

  private static SourceChange shift(SourceChange change, long keyShift, long eventShift) {
    if (change instanceof SourceChange.Insert insert) {
      return SourceChange.insert(shift(insert.after(), keyShift, eventShift));
    }
    if (change instanceof SourceChange.Update update) {
      return SourceChange.update(
          shift(update.before(), keyShift, eventShift),
          shift(update.after(), keyShift, eventShift));
    }
    SourceChange.Delete delete = (SourceChange.Delete) change;
    return SourceChange.delete(shift(delete.before(), keyShift, eventShift));
  }

  private static Row shift(Row row, long keyShift, long eventShift) {
    long key = (Long) Objects.requireNonNull(row.get(KEY));
    long eventId = Objects.requireNonNull(row.eventId());
    return row.with(KEY, key + keyShift).with(EVENT_ID, eventId + eventShift);
  }

  private static List<Row> rows(SourceChange change) {
    if (change instanceof SourceChange.Insert insert) {
      return List.of(insert.after());
    }
    if (change instanceof SourceChange.Update update) {
      return List.of(update.before(), update.after());
    }
    return List.of(((SourceChange.Delete) change).before());
  }
}
