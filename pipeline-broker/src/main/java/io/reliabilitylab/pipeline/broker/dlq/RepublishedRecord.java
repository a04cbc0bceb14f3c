package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where the broker stored a republished (repaired) change record.
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset in that partition
 * @param timestampMs the record's timestamp, milliseconds since the epoch
 */
@API(status = EXPERIMENTAL)
public record RepublishedRecord(String topic, int partition, long offset, long timestampMs) {
  public RepublishedRecord {
    Objects.requireNonNull(topic, "topic");
  }
}
