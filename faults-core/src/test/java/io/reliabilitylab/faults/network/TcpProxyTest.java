package io.reliabilitylab.faults.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.NetworkLink.Direction;
import io.reliabilitylab.spi.pipeline.NetworkLinkCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy on a real loopback echo server: each impairment, and what its counters show. */
class TcpProxyTest {

  private ServerSocket echoServer;
  private Thread echo;
  private TcpProxy proxy;

  @BeforeEach
  void startEchoServerBehindAProxy() throws IOException {
    echoServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    echo = new Thread(this::echoLoop, "echo");
    echo.setDaemon(true);
    echo.start();
    proxy = TcpProxy.start("source", "127.0.0.1", echoServer.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echoServer.close();
  }

  @Test
  void forwardsBothWaysAndCountsTheBytes() throws IOException {
    try (Socket socket = connect()) {
      assertThat(roundTrip(socket, "hello")).isEqualTo("hello");
    }
    // the writer counts a chunk once written, which may be just after the echo was read
    NetworkLinkCounters counters = awaitCounters(c -> c.bytesToClient() == 5);
    assertThat(counters.connectionsAccepted()).isEqualTo(1);
    assertThat(counters.bytesToServer()).isEqualTo(5);
    assertThat(counters.bytesToClient()).isEqualTo(5);
    assertThat(proxy.target()).isEqualTo("127.0.0.1:" + echoServer.getLocalPort());
  }

  @Test
  void aFreezeHoldsTheBytesWithoutResettingAndAHealDeliversThemInOrder() throws IOException {
    try (Socket socket = connect()) {
      assertThat(roundTrip(socket, "warm")).isEqualTo("warm");
      proxy.freeze(Direction.TO_CLIENT);
      send(socket, "held-1");
      send(socket, "held-2");
      socket.setSoTimeout(300);
      assertThatThrownBy(() -> socket.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);
      awaitHeld(12);
      assertThat(proxy.counters().connectionsReset()).isZero();

      proxy.heal();
      socket.setSoTimeout(5_000);
      assertThat(read(socket, 12)).isEqualTo("held-1held-2");
    }
    assertThat(awaitCounters(c -> c.bytesToClient() == 16).bytesHeld()).isEqualTo(12);
  }

  @Test
  void aCutResetsOpenConnectionsAndRefusesNewOnesUntilHealed() throws IOException {
    Socket open = connect();
    assertThat(roundTrip(open, "before")).isEqualTo("before");
    proxy.cut();
    assertThatThrownBy(() -> roundTrip(open, "after")).isInstanceOf(IOException.class);
    open.close();
    try (Socket refused = connect()) {
      assertThatThrownBy(() -> roundTrip(refused, "refused")).isInstanceOf(IOException.class);
    }
    NetworkLinkCounters cut = proxy.counters();
    assertThat(cut.connectionsReset()).isEqualTo(1);
    assertThat(cut.connectionsRefused()).isEqualTo(1);

    proxy.heal();
    try (Socket again = connect()) {
      assertThat(roundTrip(again, "again")).isEqualTo("again");
    }
  }

  @Test
  void latencyDelaysEachChunkAndAHealEndsIt() throws IOException {
    try (Socket socket = connect()) {
      proxy.delay(Direction.BOTH, Duration.ofMillis(150), Duration.ofMillis(50));
      long started = System.nanoTime();
      assertThat(roundTrip(socket, "slow")).isEqualTo("slow");
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(tookMillis).isGreaterThanOrEqualTo(300); // 150 ms each way, at least
      assertThat(awaitCounters(c -> c.chunksDelayed() == 2).chunksDelayed()).isEqualTo(2);
      assertThat(proxy.counters().maxAddedDelayMillis()).isBetween(150L, 2_000L);

      proxy.heal();
      assertThat(roundTrip(socket, "fast")).isEqualTo("fast");
      assertThat(proxy.counters().chunksDelayed()).isEqualTo(2);
    }
  }

  @Test
  void aThrottlePacesTheBytes() throws IOException {
    try (Socket socket = connect()) {
      proxy.throttle(Direction.TO_SERVER, 2_000);
      byte[] payload = new byte[1_000];
      Arrays.fill(payload, (byte) 'x');
      long started = System.nanoTime();
      socket.getOutputStream().write(payload);
      assertThat(read(socket, 1_000)).hasSize(1_000);
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(tookMillis).isGreaterThanOrEqualTo(400); // 1,000 bytes at 2,000 B/s
      assertThat(awaitCounters(c -> c.bytesThrottled() == 1_000).bytesThrottled()).isEqualTo(1_000);
    }
  }

  @Test
  void refusesImpossibleImpairments() {
    assertThatThrownBy(() -> proxy.throttle(Direction.BOTH, 0))
        .hasMessageContaining("at least 1 byte per second");
    assertThatThrownBy(() -> proxy.delay(Direction.BOTH, Duration.ofMillis(-1), Duration.ZERO))
        .hasMessageContaining("must not be negative");
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(proxy.host(), proxy.port());
    socket.setSoTimeout(5_000);
    return socket;
  }

  private void awaitHeld(long bytes) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (proxy.counters().bytesHeldNow() < bytes && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(proxy.counters().bytesHeldNow()).isEqualTo(bytes);
  }

  private NetworkLinkCounters awaitCounters(
      java.util.function.Predicate<NetworkLinkCounters> condition) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    NetworkLinkCounters counters = proxy.counters();
    while (!condition.test(counters) && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      counters = proxy.counters();
    }
    return counters;
  }

  private static String roundTrip(Socket socket, String text) throws IOException {
    send(socket, text);
    return read(socket, text.length());
  }

  private static void send(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    out.flush();
  }

  private static String read(Socket socket, int length) throws IOException {
    byte[] bytes = socket.getInputStream().readNBytes(length);
    if (bytes.length < length) {
      throw new IOException("closed after " + bytes.length + " of " + length + " bytes");
    }
    return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
  }

  private void echoLoop() {
    while (!echoServer.isClosed()) {
      try {
        Socket socket = echoServer.accept();
        Thread copy =
            new Thread(
                () -> {
                  try (socket;
                      InputStream in = socket.getInputStream();
                      OutputStream out = socket.getOutputStream()) {
                    in.transferTo(out);
                  } catch (IOException ignored) {
                    // the proxy reset it
                  }
                });
        copy.setDaemon(true);
        copy.start();
      } catch (IOException closed) {
        return;
      }
    }
  }
}
