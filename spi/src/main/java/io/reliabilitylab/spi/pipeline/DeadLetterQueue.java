package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.DlqRecord;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The pipeline's dead-letter topic: records that failed to deserialize or validate, with their
 * error metadata and original bytes, and a repair replay that republishes the intended change.
 */
@API(status = EXPERIMENTAL)
public interface DeadLetterQueue extends PipelineCapability {

  /** The dead-letter topic's name. */
  String topic();

  /** Every record in the dead-letter topic now, in topic order. */
  List<DlqRecord> records() throws Exception;

  /**
   * Decodes the change a quarantined record was meant to carry, re-encodes it in the pipeline's
   * format and republishes it with the primary key as the key. Never throws for a record that
   * cannot be repaired: the outcome says why.
   */
  Repair repair(DlqRecord record) throws Exception;

  /** Every repair attempted so far, oldest first. */
  List<Repair> repairs();

  /**
   * One repair replay.
   *
   * @param original the quarantined record's original topic, partition and offset as text
   * @param repaired whether a change was recovered and republished
   * @param reason what was recovered, or why nothing could be
   * @param topic where the repaired record went (empty when not repaired)
   * @param partition its partition (-1 when not repaired)
   * @param offset its offset (-1 when not repaired)
   * @param timestampMs the broker's timestamp (-1 when not repaired)
   * @param key the primary key it was published with
   * @param eventId the event id of the recovered change
   * @param at when it was republished
   */
  record Repair(
      String original,
      boolean repaired,
      String reason,
      String topic,
      int partition,
      long offset,
      long timestampMs,
      @Nullable String key,
      @Nullable Long eventId,
      Instant at) {
    public Repair {
      Objects.requireNonNull(original, "original");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(at, "at");
    }
  }
}
