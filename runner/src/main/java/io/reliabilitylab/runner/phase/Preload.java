package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.source.jdbc.WriterSettings;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * For a fault placed in the snapshot phase, which needs rows to snapshot: writes the baseline
 * before the job starts, and arms the snapshot-phase faults the moment the job is submitted.
 */
@API(status = INTERNAL)
public final class Preload implements Phase {

  @Override
  public String name() {
    return "preload";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    if (!scenario.snapshotPhase()) {
      return Outcome.proceed();
    }
    Instant preloadAt = scenario.clock().instant();
    scenario.source().writer(WriterSettings.of(scenario.table().name())).write(scenario.baseline());
    scenario.timing("preload", preloadAt);
    int faults = scenario.plan().snapshotPhaseFaults();
    scenario.onJobSubmitted(
        submitted -> {
          for (int index = 0; index < faults; index++) {
            scenario
                .armedAtSubmission()
                .add(FaultInjection.arm(scenario, submitted, index, () -> {}));
          }
        });
    return Outcome.proceed();
  }
}
