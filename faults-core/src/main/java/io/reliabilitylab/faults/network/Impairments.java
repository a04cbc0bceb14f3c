package io.reliabilitylab.faults.network;

import io.reliabilitylab.spi.pipeline.NetworkLink.Direction;
import java.time.Duration;

/** What the link does to each direction now: one impairment per direction, swapped atomically. */
final class Impairments {

  /**
   * One direction's impairment.
   *
   * @param frozen bytes are held until healed
   * @param latencyNanos added to every chunk
   * @param jitterNanos at most this much more, uniformly random
   * @param bytesPerSecond the throttle, or 0 for none
   */
  record Impairment(boolean frozen, long latencyNanos, long jitterNanos, long bytesPerSecond) {
    static final Impairment NONE = new Impairment(false, 0, 0, 0);

    boolean delays() {
      return latencyNanos > 0 || jitterNanos > 0;
    }
  }

  private volatile Impairment toServer = Impairment.NONE;
  private volatile Impairment toClient = Impairment.NONE;

  Impairment of(Direction flow) {
    return flow == Direction.TO_SERVER ? toServer : toClient;
  }

  void freeze(Direction direction) {
    set(direction, new Impairment(true, 0, 0, 0));
  }

  void delay(Direction direction, Duration latency, Duration jitter) {
    set(direction, new Impairment(false, latency.toNanos(), jitter.toNanos(), 0));
  }

  void throttle(Direction direction, long bytesPerSecond) {
    set(direction, new Impairment(false, 0, 0, bytesPerSecond));
  }

  void clear() {
    toServer = Impairment.NONE;
    toClient = Impairment.NONE;
  }

  private void set(Direction direction, Impairment impairment) {
    if (direction.includes(Direction.TO_SERVER)) {
      toServer = impairment;
    }
    if (direction.includes(Direction.TO_CLIENT)) {
      toClient = impairment;
    }
  }
}
