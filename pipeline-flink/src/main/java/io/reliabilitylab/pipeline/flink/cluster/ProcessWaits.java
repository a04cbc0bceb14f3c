package io.reliabilitylab.pipeline.flink.cluster;

import io.reliabilitylab.process.LabProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/** Waiting for a cluster process to listen, and failing fast with its log when it exited. */
final class ProcessWaits {

  private static final long POLL_MILLIS = 100;

  private ProcessWaits() {}

  static void awaitPort(LabProcess process, int port, long deadline, ProcessClusterConfig config)
      throws Exception {
    while (System.nanoTime() < deadline) {
      failIfExited(process, config);
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(ProcessClusterConfig.LOOPBACK, port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(POLL_MILLIS);
      }
    }
    throw new TimeoutException(
        process.role() + " did not listen on port " + port + "; see " + process.log());
  }

  static void failIfExited(LabProcess process, ProcessClusterConfig config) throws IOException {
    Optional<Integer> exit = process.exitCode();
    // 137: killed on purpose (SIGKILL); any other exit is the process failing to run
    if (exit.isPresent() && exit.get() != 137) {
      throw new IOException(
          process.role()
              + " (pid "
              + process.pid()
              + ") exited with status "
              + exit.get()
              + "; its log ends: "
              + tail(config.logOf(process.role()))
              + " (output in "
              + process.log()
              + ")");
    }
  }

  static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
