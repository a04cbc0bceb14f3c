package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.source.jdbc.CommitLoop;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WriteReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Applies a seeded workload to the source's {@code orders} table: one database transaction per
 * {@link SourceTransaction}, in order, and records the client's clock right after each {@code
 * COMMIT} for latency measurement. Within a commit the changes go as multi-row statements (see
 * {@link MultiRowStatements}), each key's changes in workload order:
 *
 * <ul>
 *   <li>inserts as one multi-row {@code INSERT};
 *   <li>updates as one {@code UPDATE ... CASE order_id ...}; an update that changes the primary key
 *       as a single {@code UPDATE ... SET order_id = ?, ...}, so the binlog holds one update event
 *       (a CDC source emits a key change as a delete of the old key and a create of the new one);
 *   <li>deletes as one {@code DELETE ... WHERE order_id IN (...)}.
 * </ul>
 *
 * Updates and deletes match the before image's key and event id; one that matches no row fails the
 * write, as the table no longer follows the workload.
 *
 * <pre>{@code
 * OrdersTable.in(source).reset();
 * WorkloadWriter writer = WorkloadWriter.builder(source)
 *     .eventsPerSecond(5_000)          // 0: as fast as the source takes them
 *     .listener((transaction, committedAt) -> progress.set(transaction.ordinal()))
 *     .build();
 * writer.insertInitialRows(workload);  // before the capture starts
 * WriteReport report = writer.write(workload.transactions());
 * Instant committed = report.commitTime(0);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class WorkloadWriter implements ChangeWriter {

  /** Called after each source transaction commits, in order, on the writing thread. */
  @API(status = EXPERIMENTAL)
  @FunctionalInterface
  public interface Listener extends CommitLoop.Listener {}

  private static final int INITIAL_ROWS_PER_BATCH = 1_000;

  private final SourceDatabase source;
  private final String table;
  private final CommitLoop loop;

  private WorkloadWriter(Builder builder) {
    this.source = builder.source;
    this.table = builder.table;
    this.loop =
        new CommitLoop(builder.eventsPerSecond, builder.transactionsPerCommit, builder.listener);
  }

  /**
   * A writer with the defaults: table {@code orders}, no rate limit, one commit per transaction.
   */
  public static WorkloadWriter to(SourceDatabase source) {
    return builder(source).build();
  }

  /** A builder for a writer with other settings. */
  public static Builder builder(SourceDatabase source) {
    return new Builder(source);
  }

  /**
   * Inserts the workload's initial rows, in batches, before the capture starts (a snapshot reads
   * them). Returns how many rows it inserted.
   */
  @Override
  public int insertInitialRows(Workload workload) throws SQLException {
    Objects.requireNonNull(workload, "workload");
    List<Row> rows = workload.initialRows();
    try (Connection connection = source.connect();
        PreparedStatement insert = connection.prepareStatement(insertSql())) {
      connection.setAutoCommit(false);
      for (int i = 0; i < rows.size(); i++) {
        SourceRows.bind(insert, 1, rows.get(i));
        insert.addBatch();
        if ((i + 1) % INITIAL_ROWS_PER_BATCH == 0 || i == rows.size() - 1) {
          insert.executeBatch();
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
    Objects.requireNonNull(workload, "workload");
    return write(workload.transactions());
  }

  /**
   * Writes transactions in order. Stops between two transactions when the thread is interrupted
   * (throwing {@link InterruptedException}); a failing transaction is rolled back and fails the
   * write with an {@link SQLException} naming it. A lost connection (the server crashed or
   * restarted) is opened again, and a commit whose answer was lost is written again only if the
   * database shows it did not take effect.
   */
  @Override
  public WriteReport write(List<SourceTransaction> transactions)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(transactions, "transactions");
    return loop.write(
        () -> {
          Connection connection = source.connect();
          try {
            return new CommitLoop.Session(connection, new MultiRowStatements(connection, table));
          } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
          }
        },
        SourceJdbc.quoteIdentifier(table),
        CommitLoop.RECONNECT_TIMEOUT,
        transactions,
        table);
  }

  private String insertSql() {
    return "INSERT INTO "
        + SourceJdbc.quoteIdentifier(table)
        + " ("
        + SourceRows.columnList(TableSchema.ORDERS)
        + ") VALUES ("
        + String.join(", ", java.util.Collections.nCopies(TableSchema.ORDERS.columns().size(), "?"))
        + ")";
  }

  /**
   * Settings for a writer.
   *
   * <pre>{@code
   * WorkloadWriter writer = WorkloadWriter.builder(source)
   *     .table("orders")
   *     .eventsPerSecond(10_000)
   *     .transactionsPerCommit(1)   // > 1 only for the bench: several transactions, one commit
   *     .listener((transaction, committedAt) -> {})
   *     .build();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final SourceDatabase source;
    private String table = OrdersTable.DEFAULT_NAME;
    private double eventsPerSecond;
    private int transactionsPerCommit = 1;
    private CommitLoop.@Nullable Listener listener;

    private Builder(SourceDatabase source) {
      this.source = Objects.requireNonNull(source, "source");
    }

    /** The table to write, {@code orders} by default (see {@link OrdersTable}). */
    public Builder table(String table) {
      this.table = OrdersTable.in(source, table).name();
      return this;
    }

    /** The most changes per second to write; 0 (the default) writes as fast as possible. */
    public Builder eventsPerSecond(double eventsPerSecond) {
      this.eventsPerSecond = CommitLoop.checkRate(eventsPerSecond);
      return this;
    }

    /**
     * How many source transactions share one database commit; 1 (the default) keeps one commit per
     * source transaction, which the oracle's expectations assume. More is for the bench only: the
     * current rows stay the same, but the source positions and commit times do not.
     */
    public Builder transactionsPerCommit(int transactionsPerCommit) {
      this.transactionsPerCommit = CommitLoop.checkTransactionsPerCommit(transactionsPerCommit);
      return this;
    }

    /** Called after each source transaction commits. */
    public Builder listener(CommitLoop.Listener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public WorkloadWriter build() {
      return new WorkloadWriter(this);
    }
  }
}
