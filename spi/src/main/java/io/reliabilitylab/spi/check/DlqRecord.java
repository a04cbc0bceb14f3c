package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One record found in a dead-letter topic, with its error metadata. The original payload is
 * represented by its SHA-256 and length only: run records never carry its bytes.
 *
 * @param topic the dead-letter topic
 * @param partition partition in the dead-letter topic
 * @param offset offset in the dead-letter topic
 * @param originalTopic topic the quarantined record was read from
 * @param originalPartition its partition
 * @param originalOffset its offset
 * @param originalTimestampMs its timestamp
 * @param errorType the exception class or error code that quarantined it
 * @param errorMessage the error message
 * @param quarantinedAt when it was quarantined
 * @param dlqSchemaVersion the version of the DLQ record's own schema
 * @param originalValueSha256 SHA-256 of the original value bytes, lower-case hex
 * @param originalValueLength length of the original value in bytes
 * @param originalBytesPreserved whether the DLQ record's bytes decode to exactly that original
 *     value
 */
@API(status = STABLE)
public record DlqRecord(
    String topic,
    int partition,
    long offset,
    String originalTopic,
    int originalPartition,
    long originalOffset,
    long originalTimestampMs,
    @Nullable String errorType,
    @Nullable String errorMessage,
    @Nullable Instant quarantinedAt,
    int dlqSchemaVersion,
    String originalValueSha256,
    long originalValueLength,
    boolean originalBytesPreserved) {

  public DlqRecord {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(originalTopic, "originalTopic");
    Objects.requireNonNull(originalValueSha256, "originalValueSha256");
  }
}
