package io.reliabilitylab.pipeline.broker.wire;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The key and value bytes of one change record, ready to publish. Compared by content; {@link
 * #toString()} shows lengths only, so that logging one never leaks a payload.
 *
 * @param key the UTF-8 JSON key {@code {"order_id":<long>}}
 * @param value the UTF-8 JSON change envelope
 */
@API(status = EXPERIMENTAL)
public record WireRecord(byte[] key, byte[] value) {

  public WireRecord {
    key = Objects.requireNonNull(key, "key").clone();
    value = Objects.requireNonNull(value, "value").clone();
  }

  /** A copy of the key bytes. */
  @Override
  public byte[] key() {
    return key.clone();
  }

  /** A copy of the value bytes. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof WireRecord that
        && Arrays.equals(key, that.key)
        && Arrays.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "WireRecord[key " + key.length + " bytes, value " + value.length + " bytes]";
  }
}
