package io.reliabilitylab.source.mysql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on a loopback address, for servers the lab starts. */
final class LoopbackPorts {

  private LoopbackPorts() {}

  /** A port free on {@code host} now; another process may take it before the server binds it. */
  static int free(String host) {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot find a free port on " + host + ": is the loopback interface up?", e);
    }
  }

  /** Whether {@code port} on {@code host} is bound by someone. */
  static boolean isTaken(String host, int port) {
    try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(host))) {
      return probe.getLocalPort() != port;
    } catch (IOException e) {
      return true;
    }
  }
}
