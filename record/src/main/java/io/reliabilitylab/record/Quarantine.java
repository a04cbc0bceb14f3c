package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.secret.Redactor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What happened to quarantined records and their repair: how the lab recovered, the repaired record
 * it produced, and the reconciliation taken before the source resumed. The dead-letter records
 * themselves are in the run record's {@code dlq} list, payloads as SHA-256 and length only.
 *
 * <p>{@code Quarantine.of("retained with repair replay recorded").withRepair(mode, producedRecord,
 * beforeResume)}
 *
 * @param state one line on the quarantined records' fate, e.g. {@code retained with repair replay
 *     recorded}
 * @param recoveryMode how they were repaired, e.g. {@code decode intended row, re-encode, replay
 *     with PK key}
 * @param repairReplayed whether a repaired record was produced
 * @param repairProducerMetadata where the repaired record was produced
 * @param reconciliationBeforeResume source against sink after the repair, before the source resumed
 * @param affectedKeys the primary keys of the quarantined rows, in the lab's key text
 * @param details anything else observed (free form)
 */
@API(status = STABLE)
public record Quarantine(
    String state,
    @Nullable String recoveryMode,
    boolean repairReplayed,
    @Nullable ProducedRecord repairProducerMetadata,
    @Nullable Reconciliation reconciliationBeforeResume,
    List<RowKey> affectedKeys,
    Map<String, @Nullable Object> details) {

  public Quarantine {
    state = Redactor.redact(Objects.requireNonNull(state, "state"));
    recoveryMode = Redactor.redactNullable(recoveryMode);
    affectedKeys = List.copyOf(affectedKeys);
    details = FreeMaps.freeze(details);
  }

  /** Quarantined records that were not repaired. */
  public static Quarantine of(String state) {
    return new Quarantine(state, null, false, null, null, List.of(), Map.of());
  }

  /** This section with a replayed repair. */
  public Quarantine withRepair(
      String mode, ProducedRecord produced, @Nullable Reconciliation beforeResume) {
    return new Quarantine(state, mode, true, produced, beforeResume, affectedKeys, details);
  }

  /** This section with the quarantined rows' keys. */
  public Quarantine withAffectedKeys(List<RowKey> keys) {
    return new Quarantine(
        state,
        recoveryMode,
        repairReplayed,
        repairProducerMetadata,
        reconciliationBeforeResume,
        keys,
        details);
  }

  /** This section with free-form details. */
  public Quarantine withDetails(Map<String, ? extends @Nullable Object> newDetails) {
    return new Quarantine(
        state,
        recoveryMode,
        repairReplayed,
        repairProducerMetadata,
        reconciliationBeforeResume,
        affectedKeys,
        FreeMaps.freeze(newDetails));
  }

  /** Where a record was produced: topic, partition, offset and the broker's timestamp. */
  public record ProducedRecord(String topic, int partition, long offset, long timestampMs) {
    public ProducedRecord {
      Objects.requireNonNull(topic, "topic");
    }
  }

  /**
   * A source-against-sink comparison in brief: row counts, canonical digests and the diff count.
   *
   * @param sourceRowCount rows in the source table
   * @param sinkRowCount rows in the sink table
   * @param sourceSha256 SHA-256 of the source's canonical row set
   * @param sinkSha256 SHA-256 of the sink's canonical row set
   * @param snapshotDiffCount missing, unexpected and mismatched rows together
   * @param sinkSnapshotId the sink snapshot compared, if known
   */
  public record Reconciliation(
      long sourceRowCount,
      long sinkRowCount,
      String sourceSha256,
      String sinkSha256,
      long snapshotDiffCount,
      @Nullable Long sinkSnapshotId) {
    public Reconciliation {
      Objects.requireNonNull(sourceSha256, "sourceSha256");
      Objects.requireNonNull(sinkSha256, "sinkSha256");
    }
  }
}
