package io.reliabilitylab.source.jdbc;

import io.reliabilitylab.workload.SourceTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link CommitLoop} gets over a lost connection: a new session once the server answers
 * again, and the database's word on whether the commit in flight took effect.
 */
final class Reconnection {

  private static final Logger LOG = LoggerFactory.getLogger(Reconnection.class);
  private static final Duration RETRY = Duration.ofMillis(200);

  private final CommitLoop.Sessions sessions;
  private final InDoubtCommits inDoubt;
  private final Duration timeout;
  private CommitLoop.@Nullable Session current;

  Reconnection(CommitLoop.Sessions sessions, InDoubtCommits inDoubt, Duration timeout) {
    this.sessions = sessions;
    this.inDoubt = inDoubt;
    this.timeout = timeout;
  }

  /** The session to write through: the latest one opened, or {@code first}. */
  CommitLoop.Session current(CommitLoop.Session first) {
    return current != null ? current : first;
  }

  /**
   * The first line of what lost the connection: for a failed batch the server's own error behind it
   * (pgjdbc quotes the whole batch entry, rows included, in the batch's message).
   */
  static String cause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && sql.getNextException() != null) {
        return firstLine(sql.getNextException().getMessage());
      }
    }
    return firstLine(failure.getMessage());
  }

  static String firstLine(@Nullable String message) {
    String text = String.valueOf(message);
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /** Whether a failure left the connection unusable: the server went away, or the link. */
  static boolean lost(Connection connection) {
    try {
      return connection.isClosed() || !connection.isValid(2);
    } catch (SQLException e) {
      return true;
    }
  }

  /**
   * Opens a new session (retrying until the timeout) and asks the database whether {@code group}
   * took effect; true if it did, false if it must be written again.
   *
   * @throws SQLException when no session opens in time, or the database cannot tell
   */
  boolean reconnectAndAskCommitted(String what, Exception failure, List<SourceTransaction> group)
      throws SQLException, InterruptedException {
    if (current != null) {
      current.closeQuietly();
    }
    current = null;
    long deadline = System.nanoTime() + timeout.toNanos();
    SQLException last = null;
    while (System.nanoTime() - deadline < 0) {
      try {
        CommitLoop.Session opened = sessions.open();
        opened.connection().setAutoCommit(false);
        current = opened;
        break;
      } catch (SQLException e) {
        last = e;
        Thread.sleep(RETRY.toMillis());
      }
    }
    if (current == null) {
      throw CommitLoop.withContext(
          what
              + " lost its connection ("
              + firstLine(failure.getMessage())
              + ") and no new one opened within "
              + timeout,
          last != null ? last : new SQLException("no attempt"));
    }
    Optional<Boolean> committed = inDoubt.committed(current.connection(), group);
    current.connection().rollback(); // the probe's read ends its transaction
    if (committed.isEmpty()) {
      throw CommitLoop.withContext(
          what + " lost its connection and the database cannot tell whether it committed", failure);
    }
    // INFO, not WARN: a crashed source is the fault a scenario planned
    LOG.info(
        "{} lost its connection ({}); reconnected, the database {} it",
        what,
        firstLine(failure.getMessage()),
        committed.get() ? "had committed" : "had not committed, so it is written again:");
    return committed.get();
  }
}
