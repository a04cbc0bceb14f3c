package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.TableSchema;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link ChangeWriter} writes: which table, how fast, how many source transactions per
 * database commit, and who hears of each commit.
 *
 * @param table the table to write
 * @param eventsPerSecond the most changes per second, 0 for no limit
 * @param transactionsPerCommit 1 keeps the workload's transaction boundaries, which the oracle
 *     assumes; more is for the bench only
 * @param listener called after each source transaction commits, or null
 */
@API(status = EXPERIMENTAL)
public record WriterSettings(
    String table,
    double eventsPerSecond,
    int transactionsPerCommit,
    CommitLoop.@Nullable Listener listener) {

  public WriterSettings {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("A writer needs a table to write");
    }
    CommitLoop.checkRate(eventsPerSecond);
    CommitLoop.checkTransactionsPerCommit(transactionsPerCommit);
  }

  /** {@code table} as fast as possible, one commit per transaction, nobody listening. */
  public static WriterSettings of(String table) {
    return new WriterSettings(table, 0, 1, null);
  }

  /** The lab's {@code orders} table as fast as possible, one commit per transaction. */
  public static WriterSettings orders() {
    return of(TableSchema.ORDERS.name());
  }

  /** The same, at most {@code rate} changes per second. */
  public WriterSettings eventsPerSecond(double rate) {
    return new WriterSettings(table, rate, transactionsPerCommit, listener);
  }

  /** The same, {@code count} source transactions per database commit. */
  public WriterSettings transactionsPerCommit(int count) {
    return new WriterSettings(table, eventsPerSecond, count, listener);
  }

  /** The same, {@code commits} told of each commit. */
  public WriterSettings listener(CommitLoop.Listener commits) {
    return new WriterSettings(table, eventsPerSecond, transactionsPerCommit, commits);
  }
}
