package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecordError;
import io.reliabilitylab.pipeline.broker.wire.InvalidChangeRecordException;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Recovers the intended change from a dead letter, when it can: drops the bytes before the first
 * {@code '{'} of the original value (the lab's poison is {@code 0xC3 0x28} followed by the real
 * envelope; junk in front of the JSON is the common corruption), decodes the rest strictly with
 * {@link ChangeRecordCodec}, checks it against the original key, and re-encodes it so that it can
 * be republished keyed by its primary key. It never throws on bad input: a dead letter it cannot
 * repair gives {@link RepairOutcome.Unrepairable} with the reason.
 *
 * <pre>{@code
 * if (Repair.repair(deadLetter) instanceof RepairOutcome.Repaired repaired) {
 *   publisher.publish(mainTopic, repaired.record());
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Repair {

  private static final byte OPEN_BRACE = '{';

  private Repair() {}

  /** Repairs the dead letter read from the value of a dead-letter topic record. */
  public static RepairOutcome repair(byte[] deadLetterJson) {
    Objects.requireNonNull(deadLetterJson, "deadLetterJson");
    try {
      return repair(DeadLetterCodec.decode(deadLetterJson));
    } catch (InvalidDeadLetterException e) {
      return new RepairOutcome.Unrepairable(
          "the dead letter is unreadable: " + e.getMessage(), null);
    }
  }

  /** Recovers the change a dead letter's original record was meant to carry. */
  public static RepairOutcome repair(DeadLetter deadLetter) {
    Objects.requireNonNull(deadLetter, "deadLetter");
    byte[] value = deadLetter.originalValue();
    if (value == null) {
      return new RepairOutcome.Unrepairable(
          "the dead letter holds no original value (a tombstone carries no change)", null);
    }
    int start = indexOf(value, OPEN_BRACE);
    if (start < 0) {
      return new RepairOutcome.Unrepairable(
          "the original value's " + value.length + " bytes hold no '{': no JSON envelope in it",
          ChangeRecordError.MALFORMED_JSON.code());
    }
    byte[] candidate = Arrays.copyOfRange(value, start, value.length);
    ChangeEnvelope envelope;
    try {
      envelope = ChangeRecordCodec.decodeValue(candidate);
    } catch (InvalidChangeRecordException e) {
      return new RepairOutcome.Unrepairable(
          "after dropping "
              + start
              + " leading byte(s), the original value is still not a valid change: "
              + e.getMessage(),
          e.errorType());
    }
    Long keyOrderId = readableKey(deadLetter.originalKey());
    if (keyOrderId != null && keyOrderId != envelope.image().orderId()) {
      return new RepairOutcome.Unrepairable(
          "the recovered change's order_id differs from the original key's: which one is right"
              + " cannot be told, so nothing is republished",
          ChangeRecordError.KEY_MISMATCH.code());
    }
    return new RepairOutcome.Repaired(
        envelope, ChangeRecordCodec.encode(envelope), start, keyOrderId != null);
  }

  /** The key's order_id; null when there is no key or it is unreadable (the change decides). */
  private static @Nullable Long readableKey(byte @Nullable [] key) {
    if (key == null) {
      return null;
    }
    try {
      return ChangeRecordCodec.decodeKey(key);
    } catch (InvalidChangeRecordException e) {
      return null;
    }
  }

  private static int indexOf(byte[] bytes, byte wanted) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    return -1;
  }
}
