package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/** A fault in progress: its evidence, a wait for recovery, and healing. */
@API(status = STABLE)
public interface FaultHandle extends AutoCloseable {

  /** The evidence so far; re-read it after the fault fired. */
  FaultEvidence evidence();

  /**
   * Waits until the fault fired and has been proven (or the timeout passes) and returns the
   * evidence; never reports {@link FaultStatus#FIRED} without proof.
   */
  FaultEvidence awaitFired(Duration timeout) throws InterruptedException;

  /**
   * Waits for the pipeline to recover from this fault: running, a checkpoint and a sink commit
   * after the fault.
   *
   * @throws TimeoutException when it did not recover in time; the message says how far it got
   */
  RecoveryEvidence awaitRecovery(Duration timeout) throws TimeoutException, InterruptedException;

  /** Heals what the fault broke (restarts a stopped broker, disarms a fault point); idempotent. */
  @Override
  void close();
}
