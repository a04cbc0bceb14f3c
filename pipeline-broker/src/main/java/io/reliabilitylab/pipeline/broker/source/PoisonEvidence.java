package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Evidence that a poison record was published: where it landed and which change it carried, with
 * the corrupted value represented only by its SHA-256 and length, never by its bytes.
 *
 * @param topic the topic
 * @param partition its partition
 * @param offset its offset
 * @param timestampMs its timestamp as the broker stored it
 * @param orderId the primary key (the record's key is intact)
 * @param op the operation of the change it carried
 * @param sourcePosition the change's source position
 * @param valueSha256 SHA-256 of the corrupted value bytes, lower-case hex
 * @param valueLength length of the corrupted value in bytes
 * @param k which change record after arming was corrupted (1 = the next one)
 * @param armedAt when {@link DebeziumPublisher#corruptNext(long)} was called
 * @param publishedAt when the broker acknowledged the poison record
 * @param withheld records of the same batch left unpublished and unmarked (read again on restart)
 * @param stoppedAt when the engine had stopped, offsets flushed up to the poison record
 * @param stateAfter the connector's state after the stop ({@code STOPPED})
 */
@API(status = EXPERIMENTAL)
public record PoisonEvidence(
    String topic,
    int partition,
    long offset,
    long timestampMs,
    long orderId,
    ChangeOp op,
    SourcePosition sourcePosition,
    String valueSha256,
    int valueLength,
    long k,
    Instant armedAt,
    Instant publishedAt,
    int withheld,
    Instant stoppedAt,
    ConnectorState stateAfter) {

  public PoisonEvidence {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(sourcePosition, "sourcePosition");
    Objects.requireNonNull(valueSha256, "valueSha256");
    Objects.requireNonNull(armedAt, "armedAt");
    Objects.requireNonNull(publishedAt, "publishedAt");
    Objects.requireNonNull(stoppedAt, "stoppedAt");
    Objects.requireNonNull(stateAfter, "stateAfter");
  }
}
