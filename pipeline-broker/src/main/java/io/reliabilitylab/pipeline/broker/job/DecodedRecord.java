package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.broker.dlq.Payloads;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One Kafka record of the change topic after decoding: either a {@linkplain #change() change} or a
 * quarantined record (its {@linkplain #deadLetter() dead letter JSON} and original key), with the
 * partition and offset it was read from. A Flink POJO (a record of POJO, primitive and byte-array
 * fields), so Flink serializes it without Kryo. Build one with {@link #change} or {@link
 * #quarantined}: exactly one of {@code change} and {@code deadLetter} is set. The byte arrays are
 * not copied (Flink's serializer copies them between operators).
 *
 * @param change the decoded change; null for a quarantined record
 * @param sourcePartition the Kafka partition it was read from
 * @param sourceOffset its offset in that partition
 * @param deadLetter the dead letter JSON ({@code DeadLetterCodec}); null for a change
 * @param originalKey the original record's key bytes, for the dead-letter record's key
 */
@API(status = EXPERIMENTAL)
public record DecodedRecord(
    @Nullable ChangeEnvelope change,
    int sourcePartition,
    long sourceOffset,
    byte @Nullable [] deadLetter,
    byte @Nullable [] originalKey)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Flink's type information for this record. */
  public static final TypeInformation<DecodedRecord> TYPE = TypeInformation.of(DecodedRecord.class);

  /** A decoded change read at the given partition and offset. */
  public static DecodedRecord change(ChangeEnvelope change, int partition, long offset) {
    return new DecodedRecord(
        Objects.requireNonNull(change, "change"), partition, offset, null, null);
  }

  /** A quarantined record read at the given partition and offset. */
  public static DecodedRecord quarantined(
      byte[] deadLetter, byte @Nullable [] originalKey, int partition, long offset) {
    return new DecodedRecord(
        null, partition, offset, Objects.requireNonNull(deadLetter, "deadLetter"), originalKey);
  }

  /** Whether this is a quarantined record rather than a change. */
  public boolean isQuarantined() {
    return deadLetter != null;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof DecodedRecord that
        && Objects.equals(change, that.change)
        && sourcePartition == that.sourcePartition
        && sourceOffset == that.sourceOffset
        && Arrays.equals(deadLetter, that.deadLetter)
        && Arrays.equals(originalKey, that.originalKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        change,
        sourcePartition,
        sourceOffset,
        Arrays.hashCode(deadLetter),
        Arrays.hashCode(originalKey));
  }

  @Override
  public String toString() {
    String where = sourcePartition + "@" + sourceOffset;
    return change != null
        ? "DecodedRecord[" + where + " " + change.op() + " " + BinlogPosition.of(change) + "]"
        : "DecodedRecord["
            + where
            + " quarantined, dead letter "
            + Payloads.describe(deadLetter)
            + "]";
  }
}
