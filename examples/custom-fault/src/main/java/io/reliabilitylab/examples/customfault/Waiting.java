package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.kit.EvidenceText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

/** Polls for what this fault waits for itself: a position, a connection, a commit. */
final class Waiting {

  private Waiting() {}

  /**
   * What {@code look} finds first, looking every 50 ms until {@code timeout} passes; a look that
   * throws counts as not found yet (the source or the tables may be busy).
   *
   * @throws TimeoutException naming {@code what}, and why the last look failed if it did
   */
  static <T> T until(String what, Duration timeout, Callable<Optional<T>> look)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String failure = "";
    while (System.nanoTime() - deadline < 0) {
      try {
        Optional<T> found = look.call();
        if (found.isPresent()) {
          return found.get();
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        failure = "; the last look failed: " + EvidenceText.truncate(e.toString());
      }
      Thread.sleep(50);
    }
    throw new TimeoutException("no " + what + " within " + timeout + failure);
  }
}
