package io.reliabilitylab.runner.suite;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.source.jdbc.CdcSource;
import org.apiguardian.api.API;

/**
 * Hears a suite's progress: to print it, or to write a dashboard of the records once the summary is
 * written (the runner does not depend on the report module; the command line passes a listener that
 * does). An exception thrown here stops the suite; the records written so far stay.
 */
@API(status = EXPERIMENTAL)
public interface SuiteListener {

  /** The suite starts on {@code source}, before its first scenario. */
  default void suiteStarting(CdcSource source) throws Exception {}

  /** A scenario is about to run. */
  default void scenarioStarting(ScenarioPlan plan) throws Exception {}

  /**
   * A phase of the running scenario ({@code start}, {@code catch-up}, ...) starts. Only told: an
   * exception thrown here is logged and stops nothing.
   */
  default void phaseStarting(ScenarioPlan plan, String phase) {}

  /** A scenario ran; its record is written. */
  default void scenarioFinished(RunRecord record) throws Exception {}

  /** Every scenario ran and the summary record is written. */
  default void suiteFinished(SuiteResult result) throws Exception {}
}
