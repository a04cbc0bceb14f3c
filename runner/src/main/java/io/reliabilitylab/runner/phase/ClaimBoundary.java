package io.reliabilitylab.runner.phase;

import io.reliabilitylab.runner.ScenarioPlan;

/**
 * The record's claim boundary of a plan: one sentence on what its run shows and what it does not.
 */
final class ClaimBoundary {

  private ClaimBoundary() {}

  static String of(ScenarioPlan plan) {
    String delivered =
        "Shows that pipeline '"
            + plan.pipeline()
            + "' delivered a seeded workload of "
            + plan.events()
            + " changes (seed "
            + plan.seed()
            + ") from the source into both sink tables, reconciled at one checkpoint";
    if (plan.knownHazard() != null) {
      return delivered
          + ", or that the checks caught the known upstream hazard this scenario reproduces ("
          + plan.knownHazard()
          + "); it shows the hazard on this stack and these versions only.";
    }
    if (!plan.faults().isEmpty()) {
      return delivered
          + ", after the planned faults fired and the job recovered; it shows recovery from these"
          + " faults at these positions only, not from every timing.";
    }
    if (!plan.exercises().isEmpty()) {
      return delivered
          + ", with "
          + String.join(", ", plan.exercises())
          + " exercised while it streamed; it measures this machine and this workload only.";
    }
    return delivered + "; without injected faults it proves nothing about recovery.";
  }
}
