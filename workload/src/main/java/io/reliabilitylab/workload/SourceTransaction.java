package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One source transaction: its changes in statement order and its commit time.
 *
 * @param ordinal the position of the transaction in its workload, from 0
 * @param commitTime the commit time, also the {@code updated_at} of every row it writes
 * @param changes the row changes, in order
 */
@API(status = EXPERIMENTAL)
public record SourceTransaction(long ordinal, Instant commitTime, List<SourceChange> changes) {

  public SourceTransaction {
    Objects.requireNonNull(commitTime, "commitTime");
    changes = List.copyOf(changes);
    if (ordinal < 0) {
      throw new IllegalArgumentException("A transaction ordinal cannot be negative: " + ordinal);
    }
    if (changes.isEmpty()) {
      throw new IllegalArgumentException(
          "Transaction "
              + ordinal
              + " has no changes; a source transaction changes at least one row");
    }
  }

  @Override
  public String toString() {
    StringBuilder text =
        new StringBuilder("transaction ").append(ordinal).append(" @ ").append(commitTime);
    for (SourceChange change : changes) {
      text.append("\n  ").append(change);
    }
    return text.toString();
  }
}
