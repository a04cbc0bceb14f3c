package io.reliabilitylab.kit;

import java.time.Duration;

/** How the kit's waits poll: 10 ms at first, doubling up to 200 ms, never past the deadline. */
final class Polling {

  static final Duration FIRST_POLL = Duration.ofMillis(10);
  static final Duration LONGEST_POLL = Duration.ofMillis(200);

  private Polling() {}

  /** Sleeps {@code pause}, or the {@code leftNanos} to the deadline if sooner; the next pause. */
  static Duration sleep(Duration pause, long leftNanos) throws InterruptedException {
    Thread.sleep(Math.max(1, Math.min(pause.toMillis(), leftNanos / 1_000_000)));
    return pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
  }

  /** What is left until {@code deadline} (a {@link System#nanoTime()}), at least 1 ns. */
  static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
  }
}
