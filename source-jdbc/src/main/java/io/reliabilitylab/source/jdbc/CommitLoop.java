package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.WriterReconnection;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Writes source transactions in order, commit by commit, through a database's own way of sending
 * changes ({@link ChangeStatements}): paced to a rate, several transactions per commit where the
 * bench asks for it, the client's clock read right after each {@code COMMIT} and handed to a
 * listener. A failing commit is rolled back and fails the write naming its transactions; an
 * interrupt stops it between two commits.
 */
@API(status = EXPERIMENTAL)
public final class CommitLoop {

  /** Called after each source transaction commits, in order, on the writing thread. */
  @API(status = EXPERIMENTAL)
  @FunctionalInterface
  public interface Listener {
    /** {@code committedAt} is the client's clock right after the commit returned. */
    void committed(SourceTransaction transaction, Instant committedAt);
  }

  /** How a database receives a commit's changes: in the order added, all sent by {@code flush}. */
  public interface ChangeStatements extends AutoCloseable {
    void add(SourceChange change) throws SQLException;

    void flush() throws SQLException;

    @Override
    void close() throws SQLException;
  }

  /** How long a writer waits for a lost source to answer again: a crashed server restarting. */
  public static final Duration RECONNECT_TIMEOUT = Duration.ofSeconds(60);

  private final double eventsPerSecond;
  private final int transactionsPerCommit;
  private final @Nullable Listener listener;

  /**
   * @param eventsPerSecond the most changes per second, 0 for no limit
   * @param transactionsPerCommit 1 keeps the workload's transaction boundaries (more: the bench)
   */
  public CommitLoop(
      double eventsPerSecond, int transactionsPerCommit, @Nullable Listener listener) {
    this.eventsPerSecond = checkRate(eventsPerSecond);
    this.transactionsPerCommit = checkTransactionsPerCommit(transactionsPerCommit);
    this.listener = listener;
  }

  /** A valid rate limit, or an exception saying what is. */
  public static double checkRate(double eventsPerSecond) {
    if (!(eventsPerSecond >= 0) || Double.isInfinite(eventsPerSecond)) {
      throw new IllegalArgumentException(
          "eventsPerSecond must be a finite number >= 0 (0 for no limit), got " + eventsPerSecond);
    }
    return eventsPerSecond;
  }

  /** A valid number of transactions per commit, or an exception saying what is. */
  public static int checkTransactionsPerCommit(int transactionsPerCommit) {
    if (transactionsPerCommit < 1) {
      throw new IllegalArgumentException(
          "transactionsPerCommit must be at least 1, got " + transactionsPerCommit);
    }
    return transactionsPerCommit;
  }

  /**
   * A connection and the statements that send changes over it: what the loop writes through, and
   * what it opens again when the connection was lost ({@link Sessions}).
   */
  public record Session(Connection connection, ChangeStatements statements) {

    public Session {
      Objects.requireNonNull(connection, "connection");
      Objects.requireNonNull(statements, "statements");
    }

    void closeQuietly() {
      try {
        statements.close();
      } catch (SQLException | RuntimeException ignored) {
        // the connection is gone: its statements with it
      }
      try {
        connection.close();
      } catch (SQLException | RuntimeException ignored) {
        // as above
      }
    }
  }

  /** Opens a new session on the database, e.g. after the server was restarted. */
  @FunctionalInterface
  public interface Sessions {
    Session open() throws SQLException;
  }

  /**
   * Writes {@code transactions} to {@code table} through {@code statements} on {@code connection}
   * (auto-commit is switched off); the caller closes both. A lost connection fails the write.
   */
  public WriteReport write(
      Connection connection,
      ChangeStatements statements,
      List<SourceTransaction> transactions,
      String table)
      throws SQLException, InterruptedException {
    return write(new Session(connection, statements), null, transactions, table);
  }

  /**
   * Writes {@code transactions} to {@code table} through sessions from {@code sessions}, getting
   * over a lost connection (a crashed or restarted server): it opens a new session until {@code
   * reconnectTimeout} passes, asks the database whether the commit in flight took effect ({@link
   * InDoubtCommits}) and writes it again only if not. Closes its sessions.
   *
   * @param quotedTable the table as the database's SQL names it, for the in-doubt probe
   */
  public WriteReport write(
      Sessions sessions,
      String quotedTable,
      Duration reconnectTimeout,
      List<SourceTransaction> transactions,
      String table)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(reconnectTimeout, "reconnectTimeout");
    Reconnection reconnection =
        new Reconnection(sessions, new InDoubtCommits(quotedTable), reconnectTimeout);
    Session first = sessions.open();
    try {
      return write(first, reconnection, transactions, table);
    } finally {
      reconnection.current(first).closeQuietly();
    }
  }

  private WriteReport write(
      Session session,
      @Nullable Reconnection reconnection,
      List<SourceTransaction> transactions,
      String table)
      throws SQLException, InterruptedException {
    Objects.requireNonNull(transactions, "transactions");
    long[] commitMicros = new long[transactions.size()];
    List<WriterReconnection> reconnections = new ArrayList<>();
    long changes = 0;
    long commits = 0;
    long started = System.nanoTime();
    session.connection().setAutoCommit(false);
    for (int first = 0; first < transactions.size(); first += transactionsPerCommit) {
      int end = Math.min(transactions.size(), first + transactionsPerCommit);
      if (Thread.interrupted()) {
        throw new InterruptedException(
            "Interrupted after " + first + " of " + transactions.size() + " transactions");
      }
      pace(started, changes);
      List<SourceTransaction> group = transactions.subList(first, end);
      int groupChanges = group.stream().mapToInt(t -> t.changes().size()).sum();
      while (true) {
        Session current = reconnection != null ? reconnection.current(session) : session;
        try {
          for (SourceTransaction transaction : group) {
            for (SourceChange change : transaction.changes()) {
              current.statements().add(change);
            }
          }
          current.statements().flush();
          current.connection().commit();
          break;
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(current.connection());
          String what = describe(transactions, first, end) + " to " + table;
          if (reconnection == null || !Reconnection.lost(current.connection())) {
            throw withContext(what + " failed", e);
          }
          boolean committed = reconnection.reconnectAndAskCommitted(what, e, group);
          reconnections.add(
              new WriterReconnection(
                  describe(transactions, first, end), Reconnection.cause(e), committed));
          if (committed) {
            break;
          }
          // not committed: written again on the new session
        }
      }
      Instant committedAt = Instant.now();
      long micros = ChronoUnit.MICROS.between(Instant.EPOCH, committedAt);
      commits++;
      changes += groupChanges;
      for (int t = first; t < end; t++) {
        commitMicros[t] = micros;
        if (listener != null) {
          listener.committed(transactions.get(t), committedAt);
        }
      }
    }
    return new WriteReport(
        transactions.size(),
        changes,
        commits,
        Duration.ofNanos(System.nanoTime() - started),
        commitMicros,
        reconnections);
  }

  private static String describe(List<SourceTransaction> transactions, int first, int end) {
    return end - first == 1
        ? "Writing transaction "
            + transactions.get(first).ordinal()
            + " ("
            + (first + 1)
            + " of "
            + transactions.size()
            + ")"
        : "Writing transactions "
            + transactions.get(first).ordinal()
            + "-"
            + transactions.get(end - 1).ordinal()
            + " in one commit ("
            + (first + 1)
            + "-"
            + end
            + " of "
            + transactions.size()
            + ")";
  }

  /** Waits until writing more would not exceed the rate limit. */
  private void pace(long started, long changesSoFar) throws InterruptedException {
    if (eventsPerSecond <= 0) {
      return;
    }
    long due = started + (long) (changesSoFar * 1_000_000_000.0 / eventsPerSecond);
    long wait = due - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // the failure that made the rollback necessary is what the caller needs to see
    }
  }

  /** {@code e} as an {@link SQLException} whose message starts with {@code context}. */
  public static SQLException withContext(String context, Exception e) {
    if (e instanceof SQLException sql) {
      return new SQLException(
          context + ": " + sql.getMessage(), sql.getSQLState(), sql.getErrorCode(), sql);
    }
    return new SQLException(context + ": " + e.getMessage(), e);
  }
}
