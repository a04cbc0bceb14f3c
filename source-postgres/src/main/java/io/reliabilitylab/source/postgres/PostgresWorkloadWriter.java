package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WriteReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Applies a seeded workload to a PostgreSQL source's {@code orders} table: one database transaction
 * per {@link SourceTransaction} (or per group of them, for the bench), in order, each change a row
 * statement of its own sent in batches (see {@link OrderedBatches}), and records the client's clock
 * right after each {@code COMMIT}.
 *
 * <pre>{@code
 * PostgresOrdersTable.in(source).reset();
 * PostgresWorkloadWriter writer = PostgresWorkloadWriter.builder(source).build();
 * writer.insertInitialRows(workload);  // before the capture starts
 * WriteReport report = writer.write(workload.transactions());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class PostgresWorkloadWriter {

  private static final int INITIAL_ROWS_PER_COMMIT = 1_000;

  private final PostgresSource source;
  private final String table;
  private final double eventsPerSecond;
  private final int transactionsPerCommit;
  private final @Nullable BiConsumer<SourceTransaction, Instant> listener;

  private PostgresWorkloadWriter(Builder builder) {
    this.source = builder.source;
    this.table = builder.table;
    this.eventsPerSecond = builder.eventsPerSecond;
    this.transactionsPerCommit = builder.transactionsPerCommit;
    this.listener = builder.listener;
  }

  /** A writer with the defaults: table {@code orders}, no rate limit, a commit per transaction. */
  public static PostgresWorkloadWriter to(PostgresSource source) {
    return builder(source).build();
  }

  public static Builder builder(PostgresSource source) {
    return new Builder(source);
  }

  /** Inserts the workload's initial rows before the capture starts; returns how many. */
  public int insertInitialRows(Workload workload) throws SQLException {
    List<Row> rows = Objects.requireNonNull(workload, "workload").initialRows();
    try (Connection connection = source.connect();
        OrderedBatches batches = new OrderedBatches(connection, table)) {
      connection.setAutoCommit(false);
      for (int i = 0; i < rows.size(); i++) {
        batches.add(new SourceChange.Insert(rows.get(i)));
        if ((i + 1) % INITIAL_ROWS_PER_COMMIT == 0 || i == rows.size() - 1) {
          batches.flush();
          connection.commit();
        }
      }
    } catch (SQLException e) {
      throw withContext("Inserting the workload's initial rows into " + table + " failed", e);
    }
    return rows.size();
  }

  /** Writes all the workload's transactions (not its initial rows). */
  public WriteReport write(Workload workload) throws SQLException, InterruptedException {
    return write(Objects.requireNonNull(workload, "workload").transactions());
  }

  /**
   * Writes transactions in order. Stops between two commits when the thread is interrupted; a
   * failing commit is rolled back and fails the write with an {@link SQLException} naming it.
   */
  public WriteReport write(List<SourceTransaction> transactions)
      throws SQLException, InterruptedException {
    long[] commitMicros = new long[transactions.size()];
    long changes = 0;
    long commits = 0;
    long started = System.nanoTime();
    try (Connection connection = source.connect();
        OrderedBatches batches = new OrderedBatches(connection, table)) {
      connection.setAutoCommit(false);
      for (int first = 0; first < transactions.size(); first += transactionsPerCommit) {
        int end = Math.min(transactions.size(), first + transactionsPerCommit);
        if (Thread.interrupted()) {
          throw new InterruptedException(
              "Interrupted after " + first + " of " + transactions.size() + " transactions");
        }
        pace(started, changes);
        int groupChanges = 0;
        try {
          for (SourceTransaction transaction : transactions.subList(first, end)) {
            for (SourceChange change : transaction.changes()) {
              batches.add(change);
              groupChanges++;
            }
          }
          batches.flush();
          connection.commit();
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(connection);
          throw withContext(
              "Writing transactions "
                  + transactions.get(first).ordinal()
                  + "-"
                  + transactions.get(end - 1).ordinal()
                  + " to "
                  + table
                  + " failed",
              e);
        }
        Instant committedAt = Instant.now();
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, committedAt);
        commits++;
        changes += groupChanges;
        for (int t = first; t < end; t++) {
          commitMicros[t] = micros;
          if (listener != null) {
            listener.accept(transactions.get(t), committedAt);
          }
        }
      }
    }
    return new WriteReport(
        transactions.size(),
        changes,
        commits,
        Duration.ofNanos(System.nanoTime() - started),
        commitMicros);
  }

  private void pace(long started, long changesSoFar) throws InterruptedException {
    if (eventsPerSecond > 0) {
      long due = started + (long) (changesSoFar * 1_000_000_000.0 / eventsPerSecond);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // the failure that made the rollback necessary is what the caller needs to see
    }
  }

  private static SQLException withContext(String context, Exception e) {
    if (e instanceof SQLException sql) {
      return new SQLException(
          context + ": " + sql.getMessage(), sql.getSQLState(), sql.getErrorCode(), sql);
    }
    return new SQLException(context + ": " + e.getMessage(), e);
  }

  /** Settings for a writer. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final PostgresSource source;
    private String table = PostgresOrdersTable.DEFAULT_NAME;
    private double eventsPerSecond;
    private int transactionsPerCommit = 1;
    private @Nullable BiConsumer<SourceTransaction, Instant> listener;

    private Builder(PostgresSource source) {
      this.source = Objects.requireNonNull(source, "source");
    }

    /** The table to write, {@code orders} by default. */
    public Builder table(String table) {
      this.table = PostgresOrdersTable.in(source, table).name();
      return this;
    }

    /** The most changes per second to write; 0 (the default) writes as fast as possible. */
    public Builder eventsPerSecond(double eventsPerSecond) {
      if (!(eventsPerSecond >= 0) || Double.isInfinite(eventsPerSecond)) {
        throw new IllegalArgumentException(
            "eventsPerSecond must be a finite number >= 0 (0 for no limit), got "
                + eventsPerSecond);
      }
      this.eventsPerSecond = eventsPerSecond;
      return this;
    }

    /** How many source transactions share one commit; more than 1 is for the bench only. */
    public Builder transactionsPerCommit(int transactionsPerCommit) {
      if (transactionsPerCommit < 1) {
        throw new IllegalArgumentException(
            "transactionsPerCommit must be at least 1, got " + transactionsPerCommit);
      }
      this.transactionsPerCommit = transactionsPerCommit;
      return this;
    }

    /** Called after each source transaction commits, with the client's clock then. */
    public Builder listener(BiConsumer<SourceTransaction, Instant> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public PostgresWorkloadWriter build() {
      return new PostgresWorkloadWriter(this);
    }
  }
}
