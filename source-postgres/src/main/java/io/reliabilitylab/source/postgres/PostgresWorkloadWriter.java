package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.source.jdbc.CommitLoop;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WriteReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
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
public final class PostgresWorkloadWriter implements ChangeWriter {

  private static final int INITIAL_ROWS_PER_COMMIT = 1_000;

  private final PostgresSource source;
  private final String table;
  private final CommitLoop loop;

  private PostgresWorkloadWriter(Builder builder) {
    this.source = builder.source;
    this.table = builder.table;
    this.loop =
        new CommitLoop(builder.eventsPerSecond, builder.transactionsPerCommit, builder.listener);
  }

  /** A writer with the defaults: table {@code orders}, no rate limit, a commit per transaction. */
  public static PostgresWorkloadWriter to(PostgresSource source) {
    return builder(source).build();
  }

  public static Builder builder(PostgresSource source) {
    return new Builder(source);
  }

  /** Inserts the workload's initial rows before the capture starts; returns how many. */
  @Override
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
      throw CommitLoop.withContext(
          "Inserting the workload's initial rows into " + table + " failed", e);
    }
    return rows.size();
  }

  /** Writes all the workload's transactions (not its initial rows). */
  @Override
  public WriteReport write(Workload workload) throws SQLException, InterruptedException {
    return write(Objects.requireNonNull(workload, "workload").transactions());
  }

  /**
   * Writes transactions in order. Stops between two commits when the thread is interrupted; a
   * failing commit is rolled back and fails the write with an {@link SQLException} naming it. A
   * lost connection (the server crashed or restarted) is opened again, and a commit whose answer
   * was lost is written again only if the database shows it did not take effect.
   */
  @Override
  public WriteReport write(List<SourceTransaction> transactions)
      throws SQLException, InterruptedException {
    return loop.write(
        () -> {
          Connection connection = source.connect();
          try {
            return new CommitLoop.Session(connection, new OrderedBatches(connection, table));
          } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
          }
        },
        Identifiers.quote(table),
        CommitLoop.RECONNECT_TIMEOUT,
        transactions,
        table);
  }

  /** Settings for a writer. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final PostgresSource source;
    private String table = PostgresOrdersTable.DEFAULT_NAME;
    private double eventsPerSecond;
    private int transactionsPerCommit = 1;
    private CommitLoop.@Nullable Listener listener;

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
      this.eventsPerSecond = CommitLoop.checkRate(eventsPerSecond);
      return this;
    }

    /** How many source transactions share one commit; more than 1 is for the bench only. */
    public Builder transactionsPerCommit(int transactionsPerCommit) {
      this.transactionsPerCommit = CommitLoop.checkTransactionsPerCommit(transactionsPerCommit);
      return this;
    }

    /** Called after each source transaction commits, with the client's clock then. */
    public Builder listener(CommitLoop.Listener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public PostgresWorkloadWriter build() {
      return new PostgresWorkloadWriter(this);
    }
  }
}
