package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The outcome of a check. "Inconclusive" is the honest answer where evidence is missing. */
@API(status = STABLE)
public enum Verdict {
  PASSED,
  FAILED,
  INCONCLUSIVE;

  /** The worse of two verdicts: failed over inconclusive over passed. */
  public Verdict worst(Verdict other) {
    return ordinalSeverity() >= other.ordinalSeverity() ? this : other;
  }

  private int ordinalSeverity() {
    return switch (this) {
      case PASSED -> 0;
      case INCONCLUSIVE -> 1;
      case FAILED -> 2;
    };
  }
}
