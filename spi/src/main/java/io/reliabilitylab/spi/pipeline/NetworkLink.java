package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A TCP link between the pipeline and a server it depends on (its source database, its Kafka
 * broker), carried by a proxy of the lab that can impair it the way networks fail: frozen (bytes
 * held, nothing reset), cut (every connection reset, new ones refused), slowed by latency, or
 * throttled. One impairment at a time per direction; {@link #heal()} lifts them all and lets held
 * bytes through, in order.
 *
 * <p>The link counts what it did ({@link #counters()}), so that a fault proves it fired from the
 * bytes it held, delayed or throttled and the connections it reset, not from having asked.
 */
@API(status = EXPERIMENTAL)
public interface NetworkLink {

  /** Which way the bytes flow. */
  enum Direction {
    /** Both ways. */
    BOTH,
    /** From the pipeline to the server (queries, fetch requests, acknowledgements). */
    TO_SERVER,
    /** From the server to the pipeline (result sets, the change stream, fetched records). */
    TO_CLIENT;

    /** Whether this selection includes one of the two flows. */
    public boolean includes(Direction flow) {
      return this == BOTH || this == flow;
    }
  }

  /** The link's name: {@code source} or {@code broker}. */
  String name();

  /** {@code host:port} the pipeline connects to: the proxy. */
  String address();

  /** {@code host:port} of the server behind the proxy. */
  String target();

  /** Holds every byte flowing {@code direction} until healed; connections stay open. */
  void freeze(Direction direction);

  /** Resets every open connection (TCP RST) and every new one until healed. */
  void cut();

  /**
   * Delays every chunk flowing {@code direction} by {@code latency} plus a uniform random part of
   * {@code jitter}, keeping the order of the bytes.
   */
  void delay(Direction direction, Duration latency, Duration jitter);

  /** Lets at most {@code bytesPerSecond} flow {@code direction}, per connection. */
  void throttle(Direction direction, long bytesPerSecond);

  /** Lifts every impairment; held and delayed bytes go on in order. */
  void heal();

  /** What the link carried and did so far. */
  NetworkLinkCounters counters();
}
