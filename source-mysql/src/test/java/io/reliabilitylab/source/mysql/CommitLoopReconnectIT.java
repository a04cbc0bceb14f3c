package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.source.jdbc.CommitLoop;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The writer gets over a connection lost at a commit, on a real MariaDB: a commit that did not take
 * effect is written again, one whose answer alone was lost is not written twice, and the table ends
 * as the oracle says either way, each transaction committed exactly once.
 */
class CommitLoopReconnectIT {

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @BeforeEach
  void emptyTable() throws SQLException {
    source.resetDatabase();
    OrdersTable.in(source).reset();
  }

  @Test
  void aCommitThatDidNotTakeEffectIsWrittenAgain() throws Exception {
    assertWrittenOnceEach(false);
  }

  @Test
  void aCommitWhoseAnswerWasLostIsNotWrittenTwice() throws Exception {
    assertWrittenOnceEach(true);
  }

  private void assertWrittenOnceEach(boolean commitBeforeLosingIt) throws Exception {
    Workload workload =
        WorkloadGenerator.generate(WorkloadConfig.builder().events(300).seed(5).build());
    Expectation expected = Oracle.expect(workload);
    AtomicInteger commits = new AtomicInteger();
    AtomicInteger sessions = new AtomicInteger();
    List<Long> listened = new ArrayList<>();
    int failAt = workload.transactions().size() / 2;

    WriteReport report =
        new CommitLoop(0, 1, (transaction, at) -> listened.add(transaction.ordinal()))
            .write(
                () -> {
                  // the first session loses its connection at one commit; the next ones do not
                  boolean first = sessions.getAndIncrement() == 0;
                  Connection connection =
                      losingAt(
                          source.connect(), first ? failAt : -1, commitBeforeLosingIt, commits);
                  return new CommitLoop.Session(
                      connection, new MultiRowStatements(connection, "orders"));
                },
                "`orders`",
                Duration.ofSeconds(10),
                workload.transactions(),
                "orders");

    assertThat(sessions).hasValue(2);
    assertThat(commits).as("each transaction committed once").hasValue(listened.size());
    assertThat(listened)
        .containsExactlyElementsOf(workload.transactions().stream().map(t -> t.ordinal()).toList());
    assertThat(report.transactions()).isEqualTo(workload.transactions().size());
    // the report names the lost commit and what the database said of it
    assertThat(report.reconnections())
        .singleElement()
        .satisfies(
            reconnection -> {
              assertThat(reconnection.committed()).isEqualTo(commitBeforeLosingIt);
              assertThat(reconnection.transactions()).startsWith("Writing transaction");
              assertThat(reconnection.failure()).isNotBlank();
            });
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> read = SourceRowReader.orders(source).open()) {
      read.forEachRemaining(rows::add);
    }
    assertThat(rows).isEqualTo(expected.currentRows());
  }

  /**
   * {@code connection}, whose commit number {@code failAt} (from 0) loses the connection: before
   * the commit reached the server, or after it took effect ({@code commitFirst}). Counts the
   * commits that took effect.
   */
  private static Connection losingAt(
      Connection connection, int failAt, boolean commitFirst, AtomicInteger commits) {
    AtomicInteger seen = new AtomicInteger();
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("commit") && seen.getAndIncrement() == failAt) {
                if (commitFirst) {
                  connection.commit();
                  commits.incrementAndGet();
                }
                connection.close();
                throw new SQLNonTransientConnectionException(
                    "Communications link failure", "08S01");
              }
              try {
                Object result = method.invoke(connection, args);
                if (method.getName().equals("commit")) {
                  commits.incrementAndGet();
                }
                return result;
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
