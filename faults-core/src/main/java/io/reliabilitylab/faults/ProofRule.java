package io.reliabilitylab.faults;

/** Judges whether a fault fired, from the baseline taken at injection and a later observation. */
@FunctionalInterface
interface ProofRule {

  Verdict judge(Observation baseline, Observation now) throws Exception;
}
