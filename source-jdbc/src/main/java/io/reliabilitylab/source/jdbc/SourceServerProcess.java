package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A source database server the lab runs as a process of its own (its embedded servers), which can
 * crash and be started again on the same data directory and port, as after a kernel's OOM kill and
 * an init system's restart: the binlog or WAL and the data files stay.
 */
@API(status = EXPERIMENTAL)
public interface SourceServerProcess {

  /** The server process's id. */
  long serverPid();

  /**
   * Kills the server process with SIGKILL (no shutdown, no flush) and waits up to {@code timeout}
   * until it is gone.
   *
   * @throws IllegalStateException when it is still there after the timeout
   */
  void kill(Duration timeout) throws InterruptedException;

  /**
   * Starts the server again on the same data directory and port (it recovers from its logs) and
   * returns the new process's id once it accepts connections.
   */
  long restart();
}
