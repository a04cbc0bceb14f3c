package io.reliabilitylab.harness.bench;

import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import java.util.List;

/** Counts over a part of a workload's transactions. */
final class Transactions {

  private Transactions() {}

  /** How many leading transactions hold at least {@code changes} changes. */
  static int holding(List<SourceTransaction> transactions, long changes) {
    long seen = 0;
    for (int i = 0; i < transactions.size(); i++) {
      if (seen >= changes) {
        return i;
      }
      seen += transactions.get(i).changes().size();
    }
    return transactions.size();
  }

  /** The largest event id the transactions write, or {@code none} when they write none. */
  static long lastWrittenEventId(List<SourceTransaction> transactions, long none) {
    long last = none;
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        Long written = change.writtenEventId();
        if (written != null) {
          last = Math.max(last, written);
        }
      }
    }
    return last;
  }

  /** How many changes the transactions make. */
  static long changes(List<SourceTransaction> transactions) {
    long changes = 0;
    for (SourceTransaction transaction : transactions) {
      changes += transaction.changes().size();
    }
    return changes;
  }
}
