package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.time.Instant;
import java.util.ArrayList;
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
 * <p>Build it rather than call the constructor, so that a field added later does not break the code
 * that makes evidence:
 *
 * <pre>{@code
 * FaultEvidence fired = FaultEvidence.builder(context.spec(), injectedAt)
 *     .what("killed the binlog connection of 'cdc'")
 *     .detail("connection_id", "42")
 *     .proof("connection 42 is gone from information_schema.PROCESSLIST")
 *     .fired(killedAt)
 *     .build();
 * FaultEvidence unproven = fired.toBuilder().notProven("the connector never reconnected").build();
 * }</pre>
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
    return builder(spec, at).what("not injected").skipped(reason).build();
  }

  /**
   * A builder for the evidence of the injection {@code spec}, injected or armed at {@code
   * injectedAt}; it starts {@link FaultStatus#ARMED}, with nothing done, detailed or proven yet.
   */
  public static Builder builder(FaultSpec spec, Instant injectedAt) {
    Objects.requireNonNull(spec, "spec");
    return builder(spec.id(), spec.fault(), injectedAt);
  }

  /** A builder for evidence of the injection {@code faultId} of the fault named {@code fault}. */
  public static Builder builder(String faultId, String fault, Instant injectedAt) {
    return new Builder(faultId, fault, injectedAt);
  }

  /** A builder that starts from this evidence, to move it on (armed to fired) or add a detail. */
  public Builder toBuilder() {
    Builder builder = new Builder(faultId, fault, injectedAt);
    builder.status = status;
    builder.firedAt = firedAt;
    builder.what = what;
    builder.details.putAll(details);
    builder.proofs.addAll(proofs);
    builder.reason = reason;
    return builder;
  }

  /** Whether the fault is proven to have fired. */
  public boolean fired() {
    return status == FaultStatus.FIRED;
  }

  /**
   * Collects {@link FaultEvidence}; {@link #build()} checks what the record checks: fired only with
   * a time and a proof, skipped or not proven only with a reason.
   */
  public static final class Builder {
    private final String faultId;
    private final String fault;
    private final Instant injectedAt;
    private FaultStatus status = FaultStatus.ARMED;
    private @Nullable Instant firedAt;
    private String what = "";
    private final Map<String, String> details = new LinkedHashMap<>();
    private final List<String> proofs = new ArrayList<>();
    private String reason = "";

    private Builder(String faultId, String fault, Instant injectedAt) {
      this.faultId = Objects.requireNonNull(faultId, "faultId");
      this.fault = Objects.requireNonNull(fault, "fault");
      this.injectedAt = Objects.requireNonNull(injectedAt, "injectedAt");
    }

    /** One line: what was done (or tried). */
    public Builder what(String value) {
      this.what = Objects.requireNonNull(value, "what");
      return this;
    }

    /** One target or observation; a key given twice keeps the last value. */
    public Builder detail(String key, String value) {
      details.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Several details, in their iteration order. */
    public Builder details(Map<String, String> more) {
      more.forEach(this::detail);
      return this;
    }

    /** One observation that proves the fault fired, as one line. */
    public Builder proof(String line) {
      proofs.add(Objects.requireNonNull(line, "proof"));
      return this;
    }

    /** Several proofs, in order. */
    public Builder proofs(List<String> lines) {
      lines.forEach(this::proof);
      return this;
    }

    /** Still armed: not fired yet, nothing wrong (the status a builder starts with). */
    public Builder armed() {
      this.status = FaultStatus.ARMED;
      this.firedAt = null;
      this.reason = "";
      return this;
    }

    /** Proven fired at {@code at}; {@link #build()} then needs at least one {@link #proof}. */
    public Builder fired(Instant at) {
      this.status = FaultStatus.FIRED;
      this.firedAt = Objects.requireNonNull(at, "firedAt");
      this.reason = "";
      return this;
    }

    /** Tried, but not proven to have fired, for {@code why}. */
    public Builder notProven(String why) {
      this.status = FaultStatus.NOT_PROVEN;
      this.firedAt = null;
      this.reason = Objects.requireNonNull(why, "reason");
      return this;
    }

    /** Not injected, for {@code why}: the pipeline lacks what the fault needs. */
    public Builder skipped(String why) {
      this.status = FaultStatus.SKIPPED;
      this.firedAt = null;
      this.reason = Objects.requireNonNull(why, "reason");
      return this;
    }

    public FaultEvidence build() {
      return new FaultEvidence(
          faultId, fault, status, injectedAt, firedAt, what, details, proofs, reason);
    }
  }
}
