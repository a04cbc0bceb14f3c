package io.reliabilitylab.process;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The signal that asks a lab process to stop, before SIGKILL after a grace period. */
@API(status = EXPERIMENTAL)
public enum StopSignal {
  /** What most servers take as "shut down now". */
  TERM,
  /**
   * PostgreSQL's fast shutdown: SIGTERM is its smart shutdown, which waits for every client to
   * disconnect, replication connections included.
   */
  INT
}
