package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.ScenarioPlan;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * One step of a scenario's lifecycle over its {@link Scenario}: it adds what it observed to the
 * record and says whether the scenario goes on. A phase that does not apply to the plan proceeds at
 * once.
 */
@API(status = INTERNAL)
public interface Phase {

  /**
   * The phase's name: a failed check is named after it when one of its waits throws a {@link
   * java.util.concurrent.TimeoutException}.
   */
  String name();

  /** The deadline of the phase's waits, recorded with such a failure. */
  default Duration deadline(ScenarioPlan plan) {
    return plan.catchUpTimeout();
  }

  /** Runs the phase. */
  Outcome run(Scenario scenario) throws Exception;
}
