package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One injected fault: what was planned, the evidence that it fired, the evidence of recovery and
 * its timings. Secrets in the evidence's free text are masked.
 *
 * <p>{@code FaultRecord.of(spec, handle.evidence(), recovery).withConnectorStatus(during, after)}
 *
 * @param spec the planned injection, its position in text form
 * @param evidence the proof that it fired, or why it was skipped or not proven
 * @param recovery the proof of recovery, absent when the fault did not fire or recovery was not
 *     awaited
 * @param injectedAt when the lab injected it
 * @param recoveredAt when the pipeline had recovered: running, a checkpoint and a commit after the
 *     fault
 * @param recoveryTime from the fault taking effect to recovery, written in milliseconds
 * @param connectorStatusDuringInjection the source connector's status while the fault was active,
 *     as reported (free form)
 * @param connectorStatusAfterResume the source connector's status after it resumed (free form)
 */
@API(status = STABLE)
public record FaultRecord(
    FaultSpec spec,
    FaultEvidence evidence,
    @Nullable RecoveryEvidence recovery,
    Instant injectedAt,
    @Nullable Instant recoveredAt,
    @JsonProperty("recovery_ms") @Nullable Duration recoveryTime,
    Map<String, @Nullable Object> connectorStatusDuringInjection,
    Map<String, @Nullable Object> connectorStatusAfterResume) {

  public FaultRecord {
    Objects.requireNonNull(spec, "spec");
    evidence = RecordRedaction.fault(Objects.requireNonNull(evidence, "evidence"));
    if (!spec.id().equals(evidence.faultId())) {
      throw new IllegalArgumentException(
          "The evidence of fault '"
              + evidence.faultId()
              + "' does not belong to the planned fault '"
              + spec.id()
              + "'");
    }
    recovery = recovery == null ? null : RecordRedaction.recovery(recovery);
    Objects.requireNonNull(injectedAt, "injectedAt");
    recoveryTime = recoveryTime == null ? null : Durations.requireMillis(recoveryTime, "recovery");
    connectorStatusDuringInjection = FreeMaps.freeze(connectorStatusDuringInjection);
    connectorStatusAfterResume = FreeMaps.freeze(connectorStatusAfterResume);
  }

  /**
   * A fault's record with its timings derived from the evidence: recovered at the latest of the job
   * running, the first checkpoint and the first commit after the fault.
   */
  public static FaultRecord of(
      FaultSpec spec, FaultEvidence evidence, @Nullable RecoveryEvidence recovery) {
    Instant recoveredAt = null;
    Duration recoveryTime = null;
    if (recovery != null && recovery.recovered()) {
      recoveredAt =
          Stream.of(recovery.runningAt(), recovery.firstCheckpointAt(), recovery.firstCommitAt())
              .filter(Objects::nonNull)
              .max(Instant::compareTo)
              .orElseThrow();
      Duration elapsed = Duration.between(recovery.faultAt(), recoveredAt);
      recoveryTime = elapsed.isNegative() ? Duration.ZERO : elapsed;
    }
    return new FaultRecord(
        spec,
        evidence,
        recovery,
        evidence.injectedAt(),
        recoveredAt,
        recoveryTime,
        Map.of(),
        Map.of());
  }

  /** This record with the connector's status during the fault and after resuming. */
  /**
   * This record with {@code details} added to its recovery's details (what the lab observed beside
   * the fault's own proof, e.g. the workload writer's reconnections); unchanged without a recovery.
   */
  public FaultRecord withRecoveryDetails(Map<String, String> details) {
    if (recovery == null || details.isEmpty()) {
      return this;
    }
    Map<String, String> all = new java.util.LinkedHashMap<>(recovery.details());
    all.putAll(details);
    RecoveryEvidence amended =
        new RecoveryEvidence(
            recovery.recovered(),
            recovery.faultAt(),
            recovery.runningAt(),
            recovery.firstCheckpointId(),
            recovery.firstCheckpointAt(),
            recovery.firstCommitSnapshotId(),
            recovery.firstCommitAt(),
            recovery.restarts(),
            all);
    return new FaultRecord(
        spec,
        evidence,
        amended,
        injectedAt,
        recoveredAt,
        recoveryTime,
        connectorStatusDuringInjection,
        connectorStatusAfterResume);
  }

  public FaultRecord withConnectorStatus(
      Map<String, ? extends @Nullable Object> duringInjection,
      Map<String, ? extends @Nullable Object> afterResume) {
    return new FaultRecord(
        spec,
        evidence,
        recovery,
        injectedAt,
        recoveredAt,
        recoveryTime,
        FreeMaps.freeze(duringInjection),
        FreeMaps.freeze(afterResume));
  }
}
