package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A lifecycle wait passed its deadline; the message says what was awaited and how far it got. */
@API(status = EXPERIMENTAL)
public final class WaitTimedOutException extends Exception {

  private static final long serialVersionUID = 1L;

  public WaitTimedOutException(String message) {
    super(message);
  }
}
