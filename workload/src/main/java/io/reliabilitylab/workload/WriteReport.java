package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.AbstractList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a source's workload writer wrote: counts, elapsed time and, per source transaction (by its
 * index in the written list), the client's clock right after its commit.
 */
@API(status = EXPERIMENTAL)
public final class WriteReport {

  private final int transactions;
  private final long changes;
  private final long commits;
  private final Duration elapsed;
  private final long[] commitMicros;
  private final List<WriterReconnection> reconnections;

  /** {@code commitMicros}: per written transaction, its commit time in epoch microseconds. */
  public WriteReport(
      int transactions, long changes, long commits, Duration elapsed, long[] commitMicros) {
    this(transactions, changes, commits, elapsed, commitMicros, List.of());
  }

  /** As above, with the connections the writer lost and got over on the way. */
  public WriteReport(
      int transactions,
      long changes,
      long commits,
      Duration elapsed,
      long[] commitMicros,
      List<WriterReconnection> reconnections) {
    this.transactions = transactions;
    this.changes = changes;
    this.commits = commits;
    this.elapsed = elapsed;
    this.commitMicros = commitMicros.clone();
    this.reconnections = List.copyOf(reconnections);
  }

  /** The connections the writer lost and got over, in order; empty when it lost none. */
  public List<WriterReconnection> reconnections() {
    return reconnections;
  }

  /** How many source transactions were written. */
  public int transactions() {
    return transactions;
  }

  /** How many row changes (events) were written. */
  public long changes() {
    return changes;
  }

  /** How many database commits: fewer than transactions when several shared one commit. */
  public long commits() {
    return commits;
  }

  /** From the first statement to the last commit. */
  public Duration elapsed() {
    return elapsed;
  }

  /** Changes per second over {@link #elapsed()}. */
  public double changesPerSecond() {
    long nanos = Math.max(1, elapsed.toNanos());
    return changes * 1_000_000_000.0 / nanos;
  }

  /** The commit time of the transaction at {@code index} of the written list (microseconds). */
  public Instant commitTime(int index) {
    if (index < 0 || index >= commitMicros.length) {
      throw new IndexOutOfBoundsException(
          "No transaction " + index + ": " + commitMicros.length + " were written");
    }
    long micros = commitMicros[index];
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  /** All commit times, by index of the written list. */
  public List<Instant> commitTimes() {
    return new AbstractList<>() {
      @Override
      public Instant get(int index) {
        return commitTime(index);
      }

      @Override
      public int size() {
        return commitMicros.length;
      }
    };
  }

  @Override
  public String toString() {
    return "WriteReport["
        + transactions
        + " transactions, "
        + changes
        + " changes, "
        + commits
        + " commits in "
        + elapsed.toMillis()
        + " ms, "
        + Math.round(changesPerSecond())
        + " changes/s]";
  }
}
