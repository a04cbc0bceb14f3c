package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A quarantined change record as the dead-letter topic keeps it: where it was read, its original
 * key and value bytes, and why it was refused. {@link DeadLetterCodec} writes it as JSON.
 *
 * <p>Compared by content. {@link #toString()} shows the value's length and SHA-256, never its
 * bytes, so that a dead letter can be logged.
 *
 * @param dlqSchemaVersion the version of this record's own JSON schema ({@link #SCHEMA_VERSION})
 * @param quarantinedAt when the record was quarantined; null only in a record read from a DLQ topic
 *     that lacks it
 * @param originalTopic the topic the record was read from
 * @param originalPartition its partition
 * @param originalOffset its offset
 * @param originalTimestampMs its Kafka timestamp
 * @param originalKey its key bytes, if it had a key
 * @param originalValue its value bytes, if it had a value
 * @param errorType why it was refused, e.g. {@code invalid-utf8}; null only in a record read from a
 *     DLQ topic that lacks it
 * @param errorMessage what was wrong, free of payload; null only as {@code errorType}
 */
@API(status = EXPERIMENTAL)
public record DeadLetter(
    int dlqSchemaVersion,
    @Nullable Instant quarantinedAt,
    String originalTopic,
    int originalPartition,
    long originalOffset,
    long originalTimestampMs,
    byte @Nullable [] originalKey,
    byte @Nullable [] originalValue,
    @Nullable String errorType,
    @Nullable String errorMessage) {

  /** The schema version this code writes. */
  public static final int SCHEMA_VERSION = 1;

  public DeadLetter {
    Objects.requireNonNull(originalTopic, "originalTopic");
    originalKey = originalKey == null ? null : originalKey.clone();
    originalValue = originalValue == null ? null : originalValue.clone();
  }

  /**
   * A dead letter of the current schema version for a record refused now or at {@code
   * quarantinedAt}.
   */
  public static DeadLetter of(
      String originalTopic,
      int originalPartition,
      long originalOffset,
      long originalTimestampMs,
      byte @Nullable [] originalKey,
      byte @Nullable [] originalValue,
      String errorType,
      String errorMessage,
      Instant quarantinedAt) {
    return new DeadLetter(
        SCHEMA_VERSION,
        Objects.requireNonNull(quarantinedAt, "quarantinedAt"),
        originalTopic,
        originalPartition,
        originalOffset,
        originalTimestampMs,
        originalKey,
        originalValue,
        Objects.requireNonNull(errorType, "errorType"),
        Objects.requireNonNull(errorMessage, "errorMessage"));
  }

  /** A copy of the original key bytes. */
  @Override
  public byte @Nullable [] originalKey() {
    return originalKey == null ? null : originalKey.clone();
  }

  /** A copy of the original value bytes. */
  @Override
  public byte @Nullable [] originalValue() {
    return originalValue == null ? null : originalValue.clone();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof DeadLetter that
        && dlqSchemaVersion == that.dlqSchemaVersion
        && Objects.equals(quarantinedAt, that.quarantinedAt)
        && originalTopic.equals(that.originalTopic)
        && originalPartition == that.originalPartition
        && originalOffset == that.originalOffset
        && originalTimestampMs == that.originalTimestampMs
        && Arrays.equals(originalKey, that.originalKey)
        && Arrays.equals(originalValue, that.originalValue)
        && Objects.equals(errorType, that.errorType)
        && Objects.equals(errorMessage, that.errorMessage);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        dlqSchemaVersion,
        quarantinedAt,
        originalTopic,
        originalPartition,
        originalOffset,
        originalTimestampMs,
        Arrays.hashCode(originalKey),
        Arrays.hashCode(originalValue),
        errorType,
        errorMessage);
  }

  @Override
  public String toString() {
    return "DeadLetter[v"
        + dlqSchemaVersion
        + " "
        + originalTopic
        + "-"
        + originalPartition
        + "@"
        + originalOffset
        + ", "
        + errorType
        + ": "
        + errorMessage
        + ", key "
        + Payloads.describe(originalKey)
        + ", value "
        + Payloads.describe(originalValue)
        + ", quarantined at "
        + quarantinedAt
        + "]";
  }
}
