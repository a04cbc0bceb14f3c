package io.reliabilitylab.faults;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A proof rule's judgement of one observation: not yet, proven, or refuted for good. */
sealed interface Verdict {

  /** Keep waiting; {@code progress} says what is still missing, for a not-proven reason. */
  record Pending(String progress) implements Verdict {}

  /** Proven: each proof is one line; {@code details} add to the evidence. */
  record Proven(Instant firedAt, List<String> proofs, Map<String, String> details)
      implements Verdict {
    public Proven {
      proofs = List.copyOf(proofs);
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }

  /** Refuted: waiting longer cannot prove it (e.g. more restarts than the fault explains). */
  record Refuted(String reason, Map<String, String> details) implements Verdict {
    public Refuted {
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }

  static Verdict pending(String progress) {
    return new Pending(progress);
  }

  static Verdict proven(Instant firedAt, List<String> proofs, Map<String, String> details) {
    return new Proven(firedAt, proofs, details);
  }

  static Verdict refuted(String reason) {
    return new Refuted(reason, Map.of());
  }
}
