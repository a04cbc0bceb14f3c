package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Evidence that a {@link KafkaBrokerProcess} was killed with SIGKILL: which process, when, and the
 * exit status the operating system reported once it was gone.
 *
 * @param pid the killed process's id
 * @param exitStatus its exit status: 137 (128 + 9) for a SIGKILL
 * @param killedAt when the signal was sent
 */
@API(status = EXPERIMENTAL)
public record BrokerKill(long pid, int exitStatus, Instant killedAt) {

  /** The exit status of a process ended by SIGKILL. */
  public static final int SIGKILL_STATUS = 128 + 9;

  public BrokerKill {
    Objects.requireNonNull(killedAt, "killedAt");
  }
}
