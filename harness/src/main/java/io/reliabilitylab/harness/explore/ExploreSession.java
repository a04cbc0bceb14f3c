package io.reliabilitylab.harness.explore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.jqwik.api.Assume;
import org.jspecify.annotations.Nullable;

/**
 * The state of one exploration while jqwik drives it: jqwik instantiates {@link ExploreProperty}
 * itself, so the property finds its space, settings and trial runner here. One exploration runs at
 * a time per JVM.
 */
final class ExploreSession {

  private static volatile @Nullable ExploreSession current;

  private final ExploreSpace space;
  private final ExploreSettings settings;
  private final TrialRunner trials;
  private final List<Trial> runs = new ArrayList<>();
  private final Map<String, Integer> coverage;
  private @Nullable Trial original;
  private @Nullable Trial minimal;
  private int generated;
  private int shrinkTries;
  private int shrinkSkipped;
  private @Nullable Instant shrinkingSince;
  private @Nullable Instant shrinkingUntil;
  private @Nullable Exception problem;
  private @Nullable String seed;
  private boolean closed;

  private final Consumer<Trial> onTrial;

  ExploreSession(
      ExploreSpace space, ExploreSettings settings, TrialRunner trials, Consumer<Trial> onTrial) {
    this.space = space;
    this.settings = settings;
    this.trials = trials;
    this.onTrial = onTrial;
    this.coverage = space.emptyCoverage();
  }

  static ExploreSession current() {
    ExploreSession session = current;
    if (session == null) {
      throw new IllegalStateException(
          "ExploreProperty runs only inside Explorer.explore, which supplies its pipeline");
    }
    return session;
  }

  static void open(ExploreSession session) {
    current = session;
  }

  static void close() {
    ExploreSession session = current;
    if (session != null) {
      session.closeSession();
    }
    current = null;
  }

  private synchronized void closeSession() {
    closed = true;
  }

  ExploreSpace space() {
    return space;
  }

  ExploreSettings settings() {
    return settings;
  }

  /**
   * Runs one case jqwik drew or shrank to and says whether the property holds for it. While
   * shrinking, a case that fails some other way counts as holding (so shrinking stays on the first
   * failure), and past the shrink-try cap a case is not run at all.
   */
  synchronized boolean attempt(ExploreCase exploreCase) throws Exception {
    if (closed) {
      // jqwik's abandoned shrinking thread, still proposing after the exploration ended: no run
      return true;
    }
    if (problem != null) {
      Assume.that(false); // the lab broke: run nothing more
    }
    Trial.Phase phase = original == null ? Trial.Phase.GENERATED : Trial.Phase.SHRINKING;
    if (phase == Trial.Phase.SHRINKING && shrinkTries >= settings.shrinkTries()) {
      // Past the cap jqwik still proposes candidates until its time bound: each is taken as
      // holding at once, without a run (and without an exception, which costs a stack trace).
      shrinkSkipped++;
      return true;
    }
    int number = phase == Trial.Phase.GENERATED ? ++generated : ++shrinkTries;
    Trial trial;
    try {
      trial = trials.run(exploreCase, number, phase);
    } catch (Exception e) {
      problem = e;
      throw e;
    }
    runs.add(trial);
    onTrial.accept(trial);
    if (phase == Trial.Phase.GENERATED) {
      exploreCase.schedule().forEach(fault -> coverage.merge(fault.cell(), 1, Integer::sum));
      if (trial.failed()) {
        original = trial;
        minimal = trial;
        shrinkingSince = Instant.now();
      }
      return !trial.failed();
    }
    shrinkingUntil = Instant.now();
    if (original != null && trial.reproduces(original)) {
      minimal = trial;
      return false;
    }
    return true;
  }

  /** jqwik finished the property, with this seed. */
  synchronized void finished(@Nullable String usedSeed) {
    this.seed = usedSeed;
  }

  @Nullable String seed() {
    return seed;
  }

  List<Trial> runs() {
    return List.copyOf(runs);
  }

  Map<String, Integer> coverage() {
    return Map.copyOf(coverage);
  }

  @Nullable Trial original() {
    return original;
  }

  @Nullable Trial minimal() {
    return minimal;
  }

  int shrinkTries() {
    return shrinkTries;
  }

  int shrinkSkipped() {
    return shrinkSkipped;
  }

  Duration shrinkTime() {
    return shrinkingSince == null || shrinkingUntil == null
        ? Duration.ZERO
        : Duration.between(shrinkingSince, shrinkingUntil);
  }

  @Nullable Exception problem() {
    return problem;
  }

  synchronized void problem(Exception stopped) {
    if (problem == null) {
      problem = stopped;
    }
  }
}
