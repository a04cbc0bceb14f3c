package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fence beats into the embedded server's binlog as the CDC account, and stops when closed. */
class TransactionFenceIT {

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @Test
  void beatsAsTheCdcAccountUntilClosed() throws Exception {
    long before = beatInTable();
    TransactionFence fence = TransactionFence.start(endpoint(), Duration.ofMillis(50));
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (fence.beats() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(fence.beats()).isGreaterThanOrEqualTo(4);
    } finally {
      fence.close();
    }
    long written = fence.beats();
    assertThat(beatInTable() - before).isEqualTo(written);
    assertThat(fence.describe()).startsWith(written + " beats written every 50 ms, 0 failed");

    Thread.sleep(200);
    assertThat(fence.beats()).as("no beat after close").isEqualTo(written);
    assertThat(beatInTable() - before).isEqualTo(written);
  }

  @Test
  void anAccountThatMayNotWriteTheFenceIsRefusedWithWhatToRun() {
    SourceEndpoint stranger =
        new SourceEndpoint(
            source.jdbcUrl(),
            "127.0.0.1",
            source.port(),
            source.database(),
            "orders",
            Credentials.of("no_such_account", "wrong"));

    assertThatThrownBy(() -> TransactionFence.start(stranger, Duration.ofMillis(50)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no_such_account could not write the source's transaction fence")
        .hasMessageContaining("GRANT UPDATE ON srl_fence.* TO 'no_such_account';")
        .hasMessageNotContaining("wrong");
  }

  private SourceEndpoint endpoint() {
    return new SourceEndpoint(
        source.jdbcUrl(),
        "127.0.0.1",
        source.port(),
        source.database(),
        "orders",
        source.cdcCredentials());
  }

  private long beatInTable() throws SQLException {
    try (Connection admin = source.connect();
        Statement statement = admin.createStatement();
        ResultSet beat =
            statement.executeQuery("SELECT beat FROM srl_fence.transaction_fence WHERE id = 1")) {
      assertThat(beat.next()).isTrue();
      return beat.getLong(1);
    }
  }
}
