package io.reliabilitylab.pipeline.broker.wire;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Why a change record was refused; {@link #code()} is the error type a dead letter carries. */
@API(status = EXPERIMENTAL)
public enum ChangeRecordError {
  /** The value is not valid UTF-8. */
  INVALID_UTF8("invalid-utf8"),
  /** The value is empty, not well-formed JSON, or JSON but not an object. */
  MALFORMED_JSON("malformed-json"),
  /** A field the envelope needs is absent or null. */
  MISSING_FIELD("missing-field"),
  /** A field has the wrong JSON type or a value out of range, or an image the op forbids. */
  INVALID_FIELD("invalid-field"),
  /** The op is none of {@code r}, {@code c}, {@code u}, {@code d}. */
  UNKNOWN_OP("unknown-op"),
  /** A change record has no key. */
  MISSING_KEY("missing-key"),
  /** The key is not UTF-8 JSON of the form {@code {"order_id":<long>}}. */
  INVALID_KEY("invalid-key"),
  /** The key's order_id differs from the row image's, or an update changes the order_id. */
  KEY_MISMATCH("key-mismatch");

  private final String code;

  ChangeRecordError(String code) {
    this.code = code;
  }

  /** The stable, lower-case error type, e.g. {@code invalid-utf8}. */
  public String code() {
    return code;
  }
}
