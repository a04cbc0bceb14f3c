package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/** The lab's exercises, by name. */
@API(status = EXPERIMENTAL)
public final class Exercises {

  private static final List<Exercise> ALL =
      List.of(new PressureExercise(), new CompactionExercise());

  private Exercises() {}

  /** Every exercise, in the order a suite runs them. */
  public static List<Exercise> all() {
    return ALL;
  }

  /** The names of every exercise. */
  public static List<String> names() {
    return ALL.stream().map(Exercise::name).toList();
  }

  /** The exercise named {@code name}; an unknown name's message lists the known ones. */
  public static Exercise named(String name) {
    for (Exercise exercise : ALL) {
      if (exercise.name().equals(name)) {
        return exercise;
      }
    }
    throw new IllegalArgumentException("Unknown scenario '" + name + "'; use one of " + names());
  }
}
