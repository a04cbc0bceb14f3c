package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The record that a fault fired: what was done, when, to which task, checkpoint, snapshot or
 * offset, and the observations that prove it.
 *
 * @param faultId the injection's id, as in {@link FaultSpec#id()}
 * @param fault the injector's name
 * @param status fired, armed, not proven or skipped
 * @param injectedAt when the lab injected or armed it
 * @param firedAt when it took effect, if it did
 * @param what one line: what was done
 * @param details targets and observations: {@code task_manager}, {@code checkpoint_id}, {@code
 *     snapshot_id_before}, {@code restart_count_before} / {@code _after}, {@code failure_reason}
 * @param proofs each observation that proves the fault fired, as one line
 * @param reason why it was skipped or not proven, empty otherwise
 */
@API(status = STABLE)
public record FaultEvidence(
    String faultId,
    String fault,
    FaultStatus status,
    Instant injectedAt,
    @Nullable Instant firedAt,
    String what,
    Map<String, String> details,
    List<String> proofs,
    String reason) {

  public FaultEvidence {
    Objects.requireNonNull(faultId, "faultId");
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(injectedAt, "injectedAt");
    Objects.requireNonNull(what, "what");
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    proofs = List.copyOf(proofs);
    Objects.requireNonNull(reason, "reason");
    if (status == FaultStatus.FIRED && (firedAt == null || proofs.isEmpty())) {
      throw new IllegalArgumentException(
          "A fault is reported fired only with the time it fired and at least one proof");
    }
    if ((status == FaultStatus.SKIPPED || status == FaultStatus.NOT_PROVEN) && reason.isBlank()) {
      throw new IllegalArgumentException("A skipped or unproven fault needs a reason");
    }
  }

  /** A fault not injected because the pipeline lacks what it needs. */
  public static FaultEvidence skipped(FaultSpec spec, Instant at, String reason) {
    return new FaultEvidence(
        spec.id(),
        spec.fault(),
        FaultStatus.SKIPPED,
        at,
        null,
        "not injected",
        Map.of(),
        List.of(),
        reason);
  }

  /** Whether the fault is proven to have fired. */
  public boolean fired() {
    return status == FaultStatus.FIRED;
  }
}
