package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** A streaming job's state, engine-neutral. */
@API(status = STABLE)
public enum JobState {
  CREATED,
  RUNNING,
  RESTARTING,
  FAILING,
  FAILED,
  CANCELLING,
  CANCELED,
  FINISHED,
  SUSPENDED,
  UNKNOWN;

  /** Whether the job will not run again by itself. */
  public boolean isTerminal() {
    return this == FAILED || this == CANCELED || this == FINISHED;
  }
}
