package io.reliabilitylab.harness.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Shows what the lab is waiting for and for how long: on a terminal a status line that rewrites
 * itself once a wait passes {@link #STATUS_AFTER}; on any other output a plain line when a wait
 * passes {@link #QUIET_WAIT} and again every {@link #QUIET_WAIT} after, so a log shows where a
 * stuck run is without drowning a passing one. Every other line goes through {@link #print} so that
 * it never lands in the middle of the status line.
 */
final class WaitStatus implements AutoCloseable {

  static final Duration QUIET_WAIT = Duration.ofSeconds(30);
  static final Duration STATUS_AFTER = Duration.ofSeconds(2);

  private final PrintWriter printer;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final @Nullable ScheduledExecutorService ticker;
  private @Nullable String label;
  private @Nullable String phase;
  private long phaseStarted;
  private long nextPlainLine;
  private int statusWidth;

  /**
   * @param terminal the output is a terminal: a status line that rewrites itself
   * @param tick whether a thread of its own {@linkplain #tick ticks} every second (tests tick by
   *     hand)
   */
  WaitStatus(PrintWriter printer, boolean terminal, LongSupplier nanoTime, boolean tick) {
    this.printer = printer;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    if (tick) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "srl-console");
                thread.setDaemon(true);
                return thread;
              });
      ticker.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
    } else {
      ticker = null;
    }
  }

  /** Whether standard output is a terminal that a status line may rewrite. */
  static boolean standardOutputIsATerminal() {
    return System.console() != null && !"dumb".equals(System.getenv("TERM"));
  }

  /** A wait starts: {@code label} (what runs) is in {@code phase} from now on. */
  synchronized void waiting(String label, String phase) {
    this.label = label;
    this.phase = phase;
    phaseStarted = nanoTime.getAsLong();
    nextPlainLine = phaseStarted + QUIET_WAIT.toNanos();
  }

  /** No wait any more: the status line goes. */
  synchronized void stop() {
    label = null;
    phase = null;
    clear();
  }

  /** Prints lines of its own, the status line cleared first and redrawn at the next tick. */
  synchronized void print(Runnable lines) {
    clear();
    lines.run();
    printer.flush();
  }

  /** Shows how long the running phase has waited: rewritten on a terminal, a line otherwise. */
  synchronized void tick() {
    if (label == null || phase == null) {
      return;
    }
    long now = nanoTime.getAsLong();
    long waited = Duration.ofNanos(now - phaseStarted).toSeconds();
    if (terminal) {
      if (waited < STATUS_AFTER.toSeconds()) {
        return;
      }
      String status = String.format("%s: %s %d s", label, phase, waited);
      printer.print("\r" + status + " ".repeat(Math.max(0, statusWidth - status.length())));
      statusWidth = status.length();
      printer.flush();
    } else if (now >= nextPlainLine) {
      printer.printf("%s: still in %s after %d s%n", label, phase, waited);
      printer.flush();
      nextPlainLine = now + QUIET_WAIT.toNanos();
    }
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    stop();
    printer.flush();
  }

  private void clear() {
    if (statusWidth > 0) {
      printer.print("\r" + " ".repeat(statusWidth) + "\r");
      statusWidth = 0;
    }
  }
}
