package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Judges whether a fault fired, from the baseline taken before the injection and a later
 * observation. A {@link ProvenFault} asks it again on every poll until it answers proven or
 * refuted, or the deadline passes; a rule that throws counts as pending for that poll.
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface ProofRule {

  /** The verdict on {@code now}, compared with {@code baseline}. */
  ProofVerdict judge(Observation baseline, Observation now) throws Exception;
}
