package io.reliabilitylab.pipeline.flink.faults;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/** One arming of a fault point: its position, action and fault id, and whether it fired. */
final class Arming {

  private final String point;
  private final FaultPosition position;
  private final FaultAction action;
  private final String faultId;
  private final Duration stallLimit;
  private final Duration throttle;
  private final @Nullable FiringClaim claim;
  private final AtomicLong counted = new AtomicLong();
  private final AtomicBoolean fired = new AtomicBoolean();
  private final CountDownLatch released = new CountDownLatch(1);

  Arming(
      String point,
      FaultPosition position,
      FaultAction action,
      String faultId,
      Duration stallLimit,
      Duration throttle,
      @Nullable FiringClaim claim) {
    this.point = point;
    this.position = position;
    this.action = action;
    this.faultId = faultId;
    this.stallLimit = stallLimit;
    this.throttle = throttle;
    this.claim = claim;
  }

  String point() {
    return point;
  }

  FaultPosition position() {
    return position;
  }

  FaultAction action() {
    return action;
  }

  String faultId() {
    return faultId;
  }

  Duration throttleDelay() {
    return throttle;
  }

  /** Whether this arming came through a channel and claims its firing before it fires. */
  boolean claimed() {
    return claim != null;
  }

  /**
   * Counts one more event (split request, snapshot row) and says whether more than {@code
   * threshold} were counted: exactly one caller, across threads, sees the count pass it.
   */
  boolean countPast(long threshold) {
    return counted.incrementAndGet() == threshold + 1;
  }

  /** Claims the firing: true for exactly one caller, and only if not disarmed in between. */
  boolean tryFire() {
    return tryFire(null);
  }

  /** Claims the firing at a checkpoint the point knows of (for the evidence). */
  boolean tryFire(@Nullable Long checkpoint) {
    if (released.getCount() == 0 || !fired.compareAndSet(false, true)) {
      return false;
    }
    FaultFiring firing = firingAt(checkpoint);
    if (claim != null && !claim.claim(firing)) {
      FaultSwitchboard.firedElsewhere(this);
      return false;
    }
    FaultSwitchboard.fired(this, firing);
    return true;
  }

  private FaultFiring firingAt(@Nullable Long checkpoint) {
    return new FaultFiring(
        faultId, point, position, action, Instant.now(), checkpoint, ProcessIdentity.name());
  }

  /**
   * Starts a throttle: true for exactly one caller. Unlike {@link #tryFire}, the arming stays
   * active (every element is delayed until it is disarmed); its firing records when throttling
   * began. An arming from a channel throttles in every JVM that reaches its position (a throttle
   * slows the whole job until disarmed); the claim only decides which JVM reports the start.
   */
  boolean startThrottling() {
    if (released.getCount() == 0 || !fired.compareAndSet(false, true)) {
      return false;
    }
    FaultFiring firing = firingAt(null);
    if (claim == null || claim.claim(firing)) {
      FaultSwitchboard.started(this, firing);
    }
    return true;
  }

  /** Whether a throttle began and was not disarmed since. */
  boolean throttling() {
    return fired.get() && released.getCount() > 0;
  }

  /** Delays the caller by the throttle's time per element; an interrupt ends the delay early. */
  void throttle() {
    long deadline = System.nanoTime() + throttle.toNanos();
    long left;
    while ((left = deadline - System.nanoTime()) > 0 && throttling()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return; // the task is being cancelled: let it see the interrupt
      }
    }
  }

  /** The message every exception of this fault carries: the fault id first. */
  String message(String where) {
    return faultId
        + ": fault injected by the reliability lab at point '"
        + point
        + "' ("
        + action.text()
        + " at "
        + position.text()
        + ") "
        + where;
  }

  InjectedFaultException exception(String where) {
    return new InjectedFaultException(faultId, message(where));
  }

  /** Blocks until disarmed or the stall limit passes; an interrupt ends it with an exception. */
  void stall() throws InterruptedIOException {
    try {
      released.await(stallLimit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(message("was interrupted while stalling"));
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  void release() {
    released.countDown();
  }
}
