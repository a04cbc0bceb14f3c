package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How long an explorer searches and shrinks.
 *
 * @param tries how many random cases to run before giving up finding a failure
 * @param seed jqwik's seed; the same seed and tries draw the same cases (null: a random one, which
 *     the report names)
 * @param minChanges the fewest changes a case's workload makes
 * @param maxChanges the most changes a case's workload makes
 * @param shrinkTime jqwik's bound on shrinking ({@code jqwik.shrinking.bounded.seconds}); the run
 *     in progress when it passes finishes
 * @param shrinkTries the most cases tried while shrinking; past it the rest are skipped, as one
 *     real try takes 15 to 30 s
 */
@API(status = EXPERIMENTAL)
public record ExploreSettings(
    int tries,
    @Nullable Long seed,
    int minChanges,
    int maxChanges,
    Duration shrinkTime,
    int shrinkTries) {

  public ExploreSettings {
    if (tries < 1) {
      throw new IllegalArgumentException("--tries must be >= 1, got " + tries);
    }
    if (minChanges < 1 || maxChanges < minChanges) {
      throw new IllegalArgumentException(
          "--max-changes must be >= " + Math.max(1, minChanges) + ", got " + maxChanges);
    }
    Objects.requireNonNull(shrinkTime, "shrinkTime");
    if (shrinkTries < 0) {
      throw new IllegalArgumentException("--shrink-tries must be >= 0, got " + shrinkTries);
    }
  }

  /** A copy with another cap on shrinking tries. */
  public ExploreSettings withShrinkTries(int cap) {
    return new ExploreSettings(tries, seed, minChanges, maxChanges, shrinkTime, cap);
  }

  /** A copy with another seed. */
  public ExploreSettings withSeed(@Nullable Long newSeed) {
    return new ExploreSettings(tries, newSeed, minChanges, maxChanges, shrinkTime, shrinkTries);
  }
}
