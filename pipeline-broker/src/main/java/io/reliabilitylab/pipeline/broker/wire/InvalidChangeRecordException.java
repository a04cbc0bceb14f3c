package io.reliabilitylab.pipeline.broker.wire;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A change record that is not a valid envelope of the wire format. The message says what was wrong
 * and where (field names, byte offsets, JSON types), never the record's content.
 */
@API(status = EXPERIMENTAL)
public final class InvalidChangeRecordException extends Exception {

  private static final long serialVersionUID = 1L;

  private final ChangeRecordError error;

  /** A refusal of the given kind, with a message free of payload. */
  public InvalidChangeRecordException(ChangeRecordError error, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.error = Objects.requireNonNull(error, "error");
  }

  /** The kind of refusal. */
  public ChangeRecordError error() {
    return error;
  }

  /** The error type a dead letter carries, e.g. {@code invalid-utf8}. */
  public String errorType() {
    return error.code();
  }
}
