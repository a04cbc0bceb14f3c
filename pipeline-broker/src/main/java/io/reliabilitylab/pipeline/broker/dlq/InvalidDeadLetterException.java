package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A dead-letter topic record that is not a dead letter this code can read; says what is wrong. */
@API(status = EXPERIMENTAL)
public final class InvalidDeadLetterException extends Exception {

  private static final long serialVersionUID = 1L;

  /** A refusal with a message free of payload. */
  public InvalidDeadLetterException(String message) {
    super(message);
  }
}
