package io.reliabilitylab.examples.customfault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WaitingTest {

  @Test
  void looksAgainAfterAFailedLookUntilItFindsSomething() throws Exception {
    AtomicInteger looks = new AtomicInteger();

    String found =
        Waiting.until(
            "answer",
            Duration.ofSeconds(5),
            () -> {
              if (looks.incrementAndGet() == 1) {
                throw new SQLException("busy");
              }
              return looks.get() < 3 ? Optional.empty() : Optional.of("found");
            });

    assertThat(found).isEqualTo("found");
    assertThat(looks).hasValue(3);
  }

  @Test
  void aTimeoutNamesWhatWasAwaitedAndWhyTheLastLookFailed() {
    assertThatThrownBy(
            () ->
                Waiting.until(
                    "new binlog connection",
                    Duration.ofMillis(120),
                    () -> {
                      throw new SQLException("Access denied\n for user 'cdc'");
                    }))
        .isInstanceOf(TimeoutException.class)
        .hasMessageStartingWith("no new binlog connection within PT0.12S")
        .hasMessageEndingWith(
            "the last look failed: java.sql.SQLException: Access denied for user 'cdc'");
  }
}
