package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * Says that the source database runs as a process the lab started (an embedded server) and can be
 * crashed and started again on the same data directory and port, its binlog or WAL kept, as after
 * an OOM kill and an init system's restart. Offered by the lab beside the pipeline, not by the
 * pipeline: a pipeline reads a source, it does not run it.
 */
@API(status = EXPERIMENTAL)
public interface SourceProcessControl extends PipelineCapability {

  /** What the server is and where, e.g. {@code embedded-mariadb 127.0.0.1:3306}. */
  String serverDescription();

  /** The server process's id now. */
  long serverPid();

  /**
   * Kills the server process with SIGKILL and returns once it is gone (at most {@code timeout}).
   *
   * @throws IllegalStateException when it is still running after the timeout
   */
  void kill(Duration timeout) throws InterruptedException;

  /** Starts the server again on the same data and port; returns the new process's id. */
  long restart();
}
