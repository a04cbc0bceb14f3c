package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a small transaction of its own into the binlog at a steady interval, so that a reader of
 * the change log learns that every transaction before it is complete: a change log says where a
 * transaction begins, never where it ends, until something follows it. Debezium's {@code
 * heartbeat.action.query} does the same for its offsets. The fence is one row of {@value #DATABASE}
 * . {@value #TABLE}, a database of its own so that resetting the lab's database keeps it; the CDC
 * account may update it and nothing else. The lab's embedded servers have it; on another server an
 * administrator creates it ({@link #setUpStatements(String)}).
 *
 * <p>The writer never fails its pipeline: while the server is down or unreachable it tries again at
 * the next beat, and says so once a second at most; the count of beats written and the last failure
 * are its proof of life. Give it the server's own address, not a link a network fault impairs: its
 * beats would reconnect through the link and pass for the job's.
 */
@API(status = EXPERIMENTAL)
public final class TransactionFence implements AutoCloseable {

  /** The fence's database. */
  public static final String DATABASE = "srl_fence";

  /** The fence's table. */
  public static final String TABLE = "transaction_fence";

  private static final Logger LOG = LoggerFactory.getLogger(TransactionFence.class);
  private static final String BEAT =
      "UPDATE " + DATABASE + "." + TABLE + " SET beat = beat + 1 WHERE id = 1";
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration WARN_EVERY = Duration.ofSeconds(1);

  private final SourceEndpoint source;
  private final Duration interval;
  private final AtomicLong beats = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final Thread writer;
  private volatile boolean closed;
  private volatile @Nullable String lastFailure;
  private long lastWarnedNanos;
  // the writer's alone once it started: it opens and closes it, close() only waits for the writer
  private @Nullable Connection connection;

  private TransactionFence(SourceEndpoint source, Duration interval) {
    this.source = source;
    this.interval = interval;
    this.writer = new Thread(this::run, "srl-transaction-fence");
    writer.setDaemon(true);
  }

  /** {@code srl_fence.transaction_fence}, as a table list names it. */
  public static String qualifiedTable() {
    return DATABASE + "." + TABLE;
  }

  /**
   * Starts beating on {@code source} with its CDC account, after one beat that must succeed: a
   * server without the fence, or an account that may not update it, is refused with what to run.
   */
  public static TransactionFence start(SourceEndpoint source, Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("A fence beats at a positive interval, not " + interval);
    }
    TransactionFence fence = new TransactionFence(source, interval);
    try {
      fence.beat();
    } catch (SQLException e) {
      fence.close();
      throw new IllegalStateException(
          "The CDC account "
              + source.user()
              + " could not write the source's transaction fence ("
              + e.getMessage()
              + "); if the server is up and the fence missing, as an administrator run: "
              + String.join(" ", setUpStatements(source.user())));
    }
    fence.writer.start();
    return fence;
  }

  /** The statements that set the fence up for {@code cdcUser} (any host). */
  public static List<String> setUpStatements(String cdcUser) {
    return List.of(
        "CREATE DATABASE IF NOT EXISTS " + DATABASE + ";",
        "CREATE TABLE IF NOT EXISTS "
            + qualifiedTable()
            + " (id INT PRIMARY KEY, beat BIGINT NOT NULL);",
        "INSERT IGNORE INTO " + qualifiedTable() + " VALUES (1, 0);",
        "GRANT UPDATE ON " + DATABASE + ".* TO " + SourceJdbc.quoteLiteral(cdcUser) + ";");
  }

  /** How many beats were written. */
  public long beats() {
    return beats.get();
  }

  /** What the fence wrote and what failed, for a run's record. */
  public String describe() {
    String failed = lastFailure;
    return beats.get()
        + " beats written every "
        + interval.toMillis()
        + " ms, "
        + failures.get()
        + " failed"
        + (failed == null ? "" : " (last: " + failed + ")");
  }

  @Override
  public void close() {
    closed = true;
    if (!writer.isAlive()) {
      closeConnection();
      return;
    }
    writer.interrupt();
    try {
      // the writer closes its connection on its way out; a beat stuck past the socket timeout
      // is the only thing that could keep it, and the timeout bounds that
      writer.join(SOCKET_TIMEOUT.toMillis() + interval.toMillis() + 1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      while (!closed) {
        try {
          Thread.sleep(interval.toMillis());
          beat();
        } catch (InterruptedException e) {
          return;
        } catch (SQLException e) {
          // the server is down or out of reach: the next beat tries a new connection
          failed(e);
          closeConnection();
        }
      }
    } finally {
      closeConnection();
    }
  }

  private void failed(SQLException e) {
    failures.incrementAndGet();
    lastFailure = e.getMessage();
    long now = System.nanoTime();
    if (now - lastWarnedNanos > WARN_EVERY.toNanos()) {
      lastWarnedNanos = now;
      // an aligned job holds its last transaction until the next beat lands
      LOG.warn(
          "Transaction fence beat failed ({} so far): {}; an aligned job holds its last"
              + " transaction until a beat lands",
          failures.get(),
          e.getMessage());
    }
  }

  private void beat() throws SQLException {
    Connection open = connection;
    if (open == null) {
      open = SourceJdbc.open(source.jdbcUrl(), source.credentials());
      // a frozen link must not hold a beat, nor close(), for longer than this
      open.setNetworkTimeout(Runnable::run, (int) SOCKET_TIMEOUT.toMillis());
      connection = open;
    }
    try (Statement statement = open.createStatement()) {
      if (statement.executeUpdate(BEAT) != 1) {
        throw new SQLException(qualifiedTable() + " has no row with id 1");
      }
    }
    beats.incrementAndGet();
  }

  private void closeConnection() {
    Connection open = connection;
    connection = null;
    if (open != null) {
      try {
        open.close();
      } catch (SQLException e) {
        LOG.debug("Closing the fence's connection failed: {}", e.getMessage());
      }
    }
  }

  /** Creates the fence on a server the lab set up, for {@code cdc}'s accounts. */
  static void create(Statement admin, Credentials cdc, List<String> hosts) throws SQLException {
    admin.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
    admin.execute(
        "CREATE TABLE IF NOT EXISTS "
            + qualifiedTable()
            + " (id INT PRIMARY KEY, beat BIGINT NOT NULL)");
    admin.execute("INSERT IGNORE INTO " + qualifiedTable() + " VALUES (1, 0)");
    for (String host : hosts) {
      admin.execute(
          "GRANT UPDATE ON "
              + DATABASE
              + ".* TO "
              + SourceJdbc.quoteLiteral(cdc.user())
              + "@"
              + SourceJdbc.quoteLiteral(host));
    }
  }
}
