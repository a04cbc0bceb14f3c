package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Runs one explored case and says what it showed; {@link ScenarioTrials} runs the real lab. */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface TrialRunner {

  /** Runs the case; a problem of the lab itself (not of the pipeline) is thrown. */
  Trial run(ExploreCase exploreCase, int number, Trial.Phase phase) throws Exception;
}
