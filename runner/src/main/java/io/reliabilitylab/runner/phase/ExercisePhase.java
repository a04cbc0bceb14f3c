package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.ExerciseContext;
import io.reliabilitylab.runner.Exercises;
import java.nio.file.Files;
import org.apiguardian.api.API;

/**
 * Runs the plan's exercises in turn after the clean baseline; each writes the rest of the workload
 * its own way and records what it measured.
 */
@API(status = INTERNAL)
public final class ExercisePhase implements Phase {

  @Override
  public String name() {
    return "exercises";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    for (String name : scenario.plan().exercises()) {
      Exercises.named(name)
          .run(
              new ExerciseContext(
                  scenario.running().pipeline(),
                  scenario.source(),
                  scenario.workload(),
                  scenario.baselineCount(),
                  scenario.plan().catchUpTimeout(),
                  Files.createDirectories(scenario.directory().resolve(name)),
                  scenario.clock(),
                  scenario.record()));
    }
    return Outcome.proceed();
  }
}
