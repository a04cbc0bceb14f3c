package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
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

  /**
   * The exercises a selection names: {@code none}, {@code all} (in the lab's order) or a
   * comma-separated list of names, each once.
   *
   * @throws IllegalArgumentException for an unknown name or a list that names none
   */
  public static List<Exercise> select(String selection) {
    String trimmed = selection.strip();
    if (trimmed.equals("none")) {
      return List.of();
    }
    if (trimmed.equals("all")) {
      return ALL;
    }
    List<Exercise> chosen = new ArrayList<>();
    for (String part : trimmed.split(",", -1)) {
      String name = part.strip();
      if (!name.isEmpty() && chosen.stream().noneMatch(e -> e.name().equals(name))) {
        chosen.add(named(name));
      }
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException(
          "--scenarios names none; use 'none', 'all' or some of " + names());
    }
    return List.copyOf(chosen);
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
