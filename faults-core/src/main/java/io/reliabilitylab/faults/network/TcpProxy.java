package io.reliabilitylab.faults.network;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.NetworkLinkCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;

/**
 * The lab's TCP proxy: listens on a loopback port, forwards each connection to the target and
 * impairs the link on demand ({@link NetworkLink}). The kernel here has no {@code netem}, so the
 * lab shapes the traffic itself, in user space, between the pipeline and the server.
 *
 * <p>Each connection is two {@link ProxiedFlow}s (one per direction), each a reader and a writer
 * thread on blocking NIO channels: the reader takes bytes off the socket as they come, the writer
 * delivers them when the link's impairment lets it. So a freeze holds bytes without stopping the
 * sender's socket (up to a bound), latency delays without slowing the throughput, and a throttle
 * paces the writer alone. A proxy of the lab carries a handful of connections (a binlog stream,
 * some JDBC sessions, a few Kafka clients), which threads serve plainly.
 */
@API(status = EXPERIMENTAL)
public final class TcpProxy implements NetworkLink, AutoCloseable {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final InetSocketAddress target;
  private final ServerSocketChannel server;
  private final Thread acceptor;
  private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
  private final LinkCounters counters = new LinkCounters();
  private final Impairments impairments = new Impairments();

  private volatile boolean cut;
  private volatile boolean closed;

  private TcpProxy(String name, InetSocketAddress target, ServerSocketChannel server) {
    this.name = name;
    this.target = target;
    this.server = server;
    this.acceptor = new Thread(this::acceptLoop, "srl-proxy-" + name + "-accept");
    this.acceptor.setDaemon(true);
  }

  /**
   * Starts a proxy named {@code name} in front of {@code targetHost:targetPort}, on a free loopback
   * port.
   */
  public static TcpProxy start(String name, String targetHost, int targetPort) {
    return start(name, targetHost, targetPort, 0);
  }

  /**
   * Starts a proxy on loopback port {@code listenPort} (0: any free one), e.g. the port a Kafka
   * broker advertises on its proxied listener.
   */
  public static TcpProxy start(String name, String targetHost, int targetPort, int listenPort) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(targetHost, "targetHost");
    try {
      ServerSocketChannel server = ServerSocketChannel.open();
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
      TcpProxy proxy =
          new TcpProxy(name, InetSocketAddress.createUnresolved(targetHost, targetPort), server);
      proxy.acceptor.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot start the lab's "
              + name
              + " proxy on loopback port "
              + (listenPort == 0 ? "(any)" : listenPort)
              + ": "
              + e.getMessage()
              + "; free the port or leave network faults out",
          e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  /** The loopback port the proxy listens on. */
  public int port() {
    return ((InetSocketAddress) localAddress()).getPort();
  }

  /** The host the proxy listens on. */
  public String host() {
    return ((InetSocketAddress) localAddress()).getAddress().getHostAddress();
  }

  @Override
  public String address() {
    return host() + ":" + port();
  }

  @Override
  public String target() {
    return target.getHostString() + ":" + target.getPort();
  }

  @Override
  public void freeze(Direction direction) {
    impairments.freeze(direction);
  }

  @Override
  public void cut() {
    cut = true;
    for (ProxiedConnection connection : connections) {
      if (connection.reset()) {
        counters.connectionsReset.incrementAndGet();
      }
    }
  }

  @Override
  public void delay(Direction direction, Duration latency, Duration jitter) {
    if (latency.isNegative() || jitter.isNegative()) {
      throw new IllegalArgumentException(
          "Latency and jitter must not be negative, got " + latency + " and " + jitter);
    }
    impairments.delay(direction, latency, jitter);
  }

  @Override
  public void throttle(Direction direction, long bytesPerSecond) {
    if (bytesPerSecond < 1) {
      throw new IllegalArgumentException(
          "A throttle needs at least 1 byte per second, got " + bytesPerSecond);
    }
    impairments.throttle(direction, bytesPerSecond);
  }

  @Override
  public void heal() {
    cut = false;
    impairments.clear();
  }

  @Override
  public NetworkLinkCounters counters() {
    return counters.snapshot(connections.size(), heldNow());
  }

  /** Stops listening and closes every connection; idempotent. */
  @Override
  public void close() {
    closed = true;
    impairments.clear();
    try {
      server.close();
    } catch (IOException ignored) {
      // closing: nothing left to do
    }
    for (ProxiedConnection connection : connections) {
      connection.close();
    }
    connections.clear();
  }

  @Override
  public String toString() {
    return "TcpProxy[" + name + " " + (closed ? "closed" : address()) + " -> " + target() + "]";
  }

  /** Bytes read and not yet delivered, over every connection. */
  private long heldNow() {
    long held = 0;
    for (ProxiedConnection connection : connections) {
      held += connection.heldNow();
    }
    return held;
  }

  private java.net.SocketAddress localAddress() {
    try {
      return server.getLocalAddress();
    } catch (IOException e) {
      throw new UncheckedIOException("The " + name + " proxy is closed", e);
    }
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel client;
      try {
        client = server.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      counters.connectionsAccepted.incrementAndGet();
      if (cut) {
        counters.connectionsRefused.incrementAndGet();
        ProxiedConnection.resetQuietly(client);
        continue;
      }
      try {
        SocketChannel upstream = SocketChannel.open();
        upstream.socket().connect(resolvedTarget(), (int) CONNECT_TIMEOUT.toMillis());
        ProxiedConnection connection =
            new ProxiedConnection(name, client, upstream, impairments, counters, connections);
        connections.add(connection);
        connection.start();
      } catch (IOException e) {
        // the server is down (a crash, a restart): the client sees its connection closed, as it
        // would see a refused one
        ProxiedConnection.resetQuietly(client);
      }
    }
  }

  private InetSocketAddress resolvedTarget() {
    return new InetSocketAddress(target.getHostString(), target.getPort());
  }

  /** The link's counters, shared by its connections. */
  static final class LinkCounters {
    final AtomicLong connectionsAccepted = new AtomicLong();
    final AtomicLong connectionsReset = new AtomicLong();
    final AtomicLong connectionsRefused = new AtomicLong();
    final AtomicLong bytesToServer = new AtomicLong();
    final AtomicLong bytesToClient = new AtomicLong();
    final AtomicLong bytesHeld = new AtomicLong();
    final AtomicLong bytesDropped = new AtomicLong();
    final AtomicLong chunksDelayed = new AtomicLong();
    final AtomicLong maxAddedDelayMillis = new AtomicLong();
    final AtomicLong bytesThrottled = new AtomicLong();
    final AtomicLong throttledMillis = new AtomicLong();

    NetworkLinkCounters snapshot(int open, long heldNow) {
      return new NetworkLinkCounters(
          connectionsAccepted.get(),
          open,
          connectionsReset.get(),
          connectionsRefused.get(),
          bytesToServer.get(),
          bytesToClient.get(),
          bytesHeld.get(),
          heldNow,
          bytesDropped.get(),
          chunksDelayed.get(),
          maxAddedDelayMillis.get(),
          bytesThrottled.get(),
          throttledMillis.get());
    }
  }
}
