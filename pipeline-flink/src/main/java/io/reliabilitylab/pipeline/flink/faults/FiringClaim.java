package io.reliabilitylab.pipeline.flink.faults;

/**
 * Decides whether an arming may fire here: a channel's arming claims its firing in the control
 * directory, so that it fires once across JVMs and restarts.
 */
@FunctionalInterface
interface FiringClaim {

  /**
   * Claims {@code firing} for this JVM and records it; false if another JVM, or an earlier
   * incarnation of this job, claimed it first, or the claim could not be made (then nothing fires:
   * a fault never fires twice).
   */
  boolean claim(FaultFiring firing);
}
