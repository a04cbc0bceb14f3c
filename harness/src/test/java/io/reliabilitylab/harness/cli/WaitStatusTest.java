package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WaitStatusTest {

  private final AtomicLong nanos = new AtomicLong();
  private final StringWriter output = new StringWriter();
  private final PrintWriter printer = new PrintWriter(output);

  @Test
  void aTerminalStatusLineIsRewrittenOverItsLongerSelfAndGoneWhenTheWaitStops() {
    WaitStatus status = new WaitStatus(printer, true, nanos::get, false);
    status.waiting("shrinking 12", "catch-up");
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    status.tick();
    assertThat(output.toString()).as("a short wait shows nothing").isEmpty();

    nanos.addAndGet(Duration.ofSeconds(9).toNanos());
    status.tick();
    status.waiting("shrinking 12", "start");
    nanos.addAndGet(Duration.ofSeconds(3).toNanos());
    status.tick();
    assertThat(output.toString())
        .isEqualTo("\rshrinking 12: catch-up 10 s\rshrinking 12: start 3 s    ");

    status.stop();
    status.tick();
    status.print(() -> printer.println("  shrinking  12  passed"));
    assertThat(output.toString())
        .endsWith("\r" + " ".repeat(23) + "\r  shrinking  12  passed" + System.lineSeparator());
  }

  @Test
  void offATerminalAWaitIsALineEveryQuietWait() {
    WaitStatus status = new WaitStatus(printer, false, nanos::get, false);
    status.waiting("generated 3", "catch-up");
    for (int second = 0; second < 65; second++) {
      nanos.addAndGet(Duration.ofSeconds(1).toNanos());
      status.tick();
    }

    assertThat(output.toString().lines())
        .containsExactly(
            "generated 3: still in catch-up after 30 s",
            "generated 3: still in catch-up after 60 s");
  }
}
