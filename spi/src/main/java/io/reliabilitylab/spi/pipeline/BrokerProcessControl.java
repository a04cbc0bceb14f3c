package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Crashes the message broker as an operating-system process: SIGKILL, then a start on the same
 * address and data. Offered only where the broker runs as its own process on this machine, next to
 * {@link BrokerControl} (whose {@code start()} brings a killed broker back).
 *
 * <p>A SIGKILL ends the process, not the machine: what the broker wrote to the operating system's
 * page cache without an fsync survives it. Say so in a claim boundary.
 */
@API(status = EXPERIMENTAL)
public interface BrokerProcessControl extends PipelineCapability {

  /**
   * The process id of the running broker.
   *
   * @throws IllegalStateException if the broker process is not running
   */
  long pid();

  /**
   * Sends SIGKILL to the broker process and waits until it is gone.
   *
   * @return its exit status as the operating system reports it: 137 (128 + 9) after a SIGKILL
   * @throws IllegalStateException if the broker process is not running
   */
  int kill() throws Exception;

  /** Whether the process with this id is still alive, as the operating system says. */
  boolean isAlive(long pid);

  /**
   * What the broker logged at its latest start about recovering its log directory (e.g. Kafka's
   * {@code Recovering 3 logs from ... since no clean shutdown file was found}), oldest first; empty
   * where its log cannot be read.
   */
  List<String> recoveryLog();
}
