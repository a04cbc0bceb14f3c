package io.reliabilitylab.pipeline.broker.source;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds at most one {@link ArmedPoison}: armed by a caller, counted down and fired on the engine's
 * thread, then taken out exactly once, by whichever comes first of the end of the run that
 * published it, a failed publish, or the publisher's close.
 */
final class PoisonSlot {

  /** Logged under the publisher's name, where its other messages are. */
  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisher.class);

  private final AtomicReference<@Nullable ArmedPoison> armed = new AtomicReference<>();

  /**
   * Arms a poison for the {@code k}-th change record from now.
   *
   * @throws IllegalStateException if a poison is armed already
   */
  CompletableFuture<PoisonEvidence> arm(long k) {
    ArmedPoison next = new ArmedPoison(k, Instant.now());
    if (!armed.compareAndSet(null, next)) {
      throw new IllegalStateException(
          "A poison is armed already; await its evidence before arming another");
    }
    LOG.info("Poison armed: change record {} from now will be corrupted", k);
    return next.evidence;
  }

  /** The poison armed now, if any. */
  @Nullable ArmedPoison armed() {
    return armed.get();
  }

  /** Publishing the batch of a fired poison failed: its evidence fails, unless taken already. */
  void failed(ArmedPoison fired, Throwable error) {
    if (armed.compareAndSet(fired, null)) {
      fired.evidence.completeExceptionally(error);
    }
  }

  /** A run ended: if it published the armed poison, completes its evidence. */
  void runEnded(EngineRun ended, Supplier<ConnectorState> stateAfter) {
    ArmedPoison fired = armed.get();
    if (fired != null && fired.firedIn(ended)) {
      armed.set(null);
      fired.evidence.complete(fired.evidence(Instant.now(), stateAfter.get()));
    }
  }

  /** The publisher closed: a poison still armed never fires. */
  void cancel() {
    ArmedPoison left = armed.getAndSet(null);
    if (left != null) {
      left.evidence.completeExceptionally(
          new IllegalStateException("The publisher was closed before the poison fired"));
    }
  }
}
