package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A {@link ProofRule}'s judgement of one observation: not yet ({@link Pending}), {@link Proven}, or
 * {@link Refuted} for good. Only a proven verdict makes a {@link ProvenFault} fired.
 *
 * <pre>{@code
 * ProofRule rule = (baseline, now) -> now.restartCount() > baseline.restartCount()
 *     ? ProofVerdict.proven(now.at(), List.of("the job restarted"), Map.of())
 *     : ProofVerdict.pending("the restart count is still " + now.restartCount());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public sealed interface ProofVerdict {

  /** Keep waiting; {@code progress} says what is still missing, for a not-proven reason. */
  record Pending(String progress) implements ProofVerdict {}

  /** Proven: each proof is one line; {@code details} add to the evidence. */
  record Proven(Instant firedAt, List<String> proofs, Map<String, String> details)
      implements ProofVerdict {
    public Proven {
      proofs = List.copyOf(proofs);
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }

  /** Refuted: waiting longer cannot prove it (e.g. more restarts than the fault explains). */
  record Refuted(String reason, Map<String, String> details) implements ProofVerdict {
    public Refuted {
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }

  /** Not proven yet: {@code progress} says what is still missing. */
  static ProofVerdict pending(String progress) {
    return new Pending(progress);
  }

  /** Proven to have fired at {@code firedAt}, by at least one proof line. */
  static ProofVerdict proven(Instant firedAt, List<String> proofs, Map<String, String> details) {
    return new Proven(firedAt, proofs, details);
  }

  /** Refuted for {@code reason}: waiting longer cannot prove it. */
  static ProofVerdict refuted(String reason) {
    return new Refuted(reason, Map.of());
  }

  /** Refuted for {@code reason}, with details for the evidence. */
  static ProofVerdict refuted(String reason, Map<String, String> details) {
    return new Refuted(reason, details);
  }
}
