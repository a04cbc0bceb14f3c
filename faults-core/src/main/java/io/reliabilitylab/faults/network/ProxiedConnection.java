package io.reliabilitylab.faults.network;

import io.reliabilitylab.spi.pipeline.NetworkLink.Direction;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/** One client connection through the proxy: two flows, closed together. */
final class ProxiedConnection {

  private final SocketChannel client;
  private final SocketChannel upstream;
  private final ProxiedFlow toServer;
  private final ProxiedFlow toClient;
  private final Set<ProxiedConnection> registry;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicInteger cleanEnds =
      new java.util.concurrent.atomic.AtomicInteger();

  ProxiedConnection(
      String linkName,
      SocketChannel client,
      SocketChannel upstream,
      Impairments impairments,
      TcpProxy.LinkCounters counters,
      Set<ProxiedConnection> registry) {
    this.client = client;
    this.upstream = upstream;
    this.registry = registry;
    this.toServer =
        new ProxiedFlow(
            linkName,
            Direction.TO_SERVER,
            client,
            upstream,
            impairments,
            counters,
            this::flowEnded);
    this.toClient =
        new ProxiedFlow(
            linkName,
            Direction.TO_CLIENT,
            upstream,
            client,
            impairments,
            counters,
            this::flowEnded);
  }

  void start() {
    toServer.start();
    toClient.start();
  }

  long heldNow() {
    return toServer.heldNow() + toClient.heldNow();
  }

  /** Resets both sides (TCP RST, not FIN); true if the connection was still open. */
  boolean reset() {
    if (!closed.compareAndSet(false, true)) {
      return false;
    }
    toServer.dropQueued();
    toClient.dropQueued();
    resetQuietly(client);
    resetQuietly(upstream);
    registry.remove(this);
    return true;
  }

  /**
   * A flow ended: a peer that closed its side (its FIN passed on) leaves the other direction
   * running until it ends too, as TCP's half-close does; a failure closes both at once.
   */
  private void flowEnded(boolean clean) {
    if (!clean || cleanEnds.incrementAndGet() == 2) {
      close();
    }
  }

  /** Closes both sides: both flows ended, one failed, or the proxy closes. */
  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    toServer.dropQueued();
    toClient.dropQueued();
    closeQuietly(client);
    closeQuietly(upstream);
    registry.remove(this);
  }

  /** Closes with a linger of 0, so that the peer gets a reset, as from a cut cable's far end. */
  static void resetQuietly(SocketChannel channel) {
    try {
      channel.setOption(StandardSocketOptions.SO_LINGER, 0);
    } catch (IOException | RuntimeException ignored) {
      // already closed: close below is a no-op
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing left to release
    }
  }
}
