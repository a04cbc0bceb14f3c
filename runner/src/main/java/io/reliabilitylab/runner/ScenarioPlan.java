package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One scenario to run: which pipeline, which seeded workload, extra pipeline options and the
 * deadlines of its waits.
 *
 * <p>{@code ScenarioPlan.of("direct", "baseline", 42, 2_000)}
 *
 * @param pipeline the pipeline provider's name
 * @param scenario the scenario's name, e.g. {@code baseline}
 * @param seed the workload seed
 * @param events how many change events the workload writes
 * @param options pipeline options beyond the ones the runner sets ({@link LabOptions})
 * @param startTimeout deadline for the job to run and complete a first checkpoint
 * @param catchUpTimeout deadline for the sink to hold the last written event
 * @param faults the faults injected, in order, after the baseline; the workload's second half is
 *     written while they fire and recover
 * @param variant the fault variant the scenario runs, if any
 * @param knownHazard the open upstream defect the scenario reproduces, if any: its checks are
 *     expected to fail
 * @param exercises non-fault exercises run after the baseline while the second half is written, by
 *     name ({@code pressure}, {@code compaction}); a plan has faults or exercises, not both
 */
@API(status = EXPERIMENTAL)
public record ScenarioPlan(
    String pipeline,
    String scenario,
    long seed,
    int events,
    Map<String, String> options,
    Duration startTimeout,
    Duration catchUpTimeout,
    List<PlannedFault> faults,
    @Nullable String variant,
    @Nullable String knownHazard,
    List<String> exercises) {

  public ScenarioPlan {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(scenario, "scenario");
    if (events < 0) {
      throw new IllegalArgumentException("--events must be >= 0, got " + events);
    }
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    Objects.requireNonNull(startTimeout, "startTimeout");
    Objects.requireNonNull(catchUpTimeout, "catchUpTimeout");
    faults = List.copyOf(faults);
    exercises = List.copyOf(exercises);
    for (int index = 1; index < faults.size(); index++) {
      if (faults.get(index).position() instanceof FaultPosition.SnapshotPhase
          && !(faults.get(index - 1).position() instanceof FaultPosition.SnapshotPhase)) {
        throw new IllegalArgumentException(
            "Scenario '"
                + scenario
                + "' plans a snapshot-phase fault after a fault that fires later; the snapshot"
                + " phase comes first, so list its faults first");
      }
    }
    if (!faults.isEmpty() && !exercises.isEmpty()) {
      throw new IllegalArgumentException(
          "Scenario '"
              + scenario
              + "' plans faults and exercises "
              + exercises
              + "; run them as separate scenarios");
    }
  }

  /** A plan without variant, hazard or exercise. */
  public ScenarioPlan(
      String pipeline,
      String scenario,
      long seed,
      int events,
      Map<String, String> options,
      Duration startTimeout,
      Duration catchUpTimeout,
      List<PlannedFault> faults) {
    this(
        pipeline,
        scenario,
        seed,
        events,
        options,
        startTimeout,
        catchUpTimeout,
        faults,
        null,
        null,
        List.of());
  }

  /** A plan with default deadlines (60 s to start, 120 s to catch up) and no extra options. */
  public static ScenarioPlan of(String pipeline, String scenario, long seed, int events) {
    return new ScenarioPlan(
        pipeline,
        scenario,
        seed,
        events,
        Map.of(),
        Duration.ofSeconds(60),
        Duration.ofSeconds(120),
        List.of());
  }

  /** A copy with one more pipeline option. */
  public ScenarioPlan withOption(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(options);
    copy.put(key, value);
    return new ScenarioPlan(
        pipeline,
        scenario,
        seed,
        events,
        copy,
        startTimeout,
        catchUpTimeout,
        faults,
        variant,
        knownHazard,
        exercises);
  }

  /** A copy that injects these faults after the baseline. */
  public ScenarioPlan withFaults(String scenarioName, List<PlannedFault> planned) {
    return new ScenarioPlan(
        pipeline,
        scenarioName,
        seed,
        events,
        options,
        startTimeout,
        catchUpTimeout,
        planned,
        null,
        null,
        List.of());
  }

  /**
   * A copy that runs one variant of a fault: named {@code <fault>} for the default variant and
   * {@code <fault>:<variant>} otherwise.
   */
  public ScenarioPlan withFaultVariant(String fault, FaultVariant chosen) {
    return withFaultVariant(fault, chosen, false);
  }

  /**
   * As {@link #withFaultVariant(String, FaultVariant)}, the variant's checkpoint number counted
   * from the fault's injection when {@code countedFromInjection} (see {@link PlannedFault}).
   */
  public ScenarioPlan withFaultVariant(
      String fault, FaultVariant chosen, boolean countedFromInjection) {
    boolean standard = FaultVariant.DEFAULT.equals(chosen.name());
    Map<String, String> withVariants = new LinkedHashMap<>(options);
    withVariants.putAll(chosen.pipelineOptions());
    return new ScenarioPlan(
        pipeline,
        standard ? fault : fault + ":" + chosen.name(),
        seed,
        events,
        withVariants,
        startTimeout,
        catchUpTimeout,
        List.of(
            new PlannedFault(
                fault, chosen.position(), chosen.faultParameters(), countedFromInjection)),
        chosen.name(),
        chosen.knownHazard(),
        List.of());
  }

  /** A copy that runs one exercise ({@code pressure}, {@code compaction}) after the baseline. */
  public ScenarioPlan withExercise(String exercise, Map<String, String> extraOptions) {
    Map<String, String> copy = new LinkedHashMap<>(options);
    copy.putAll(extraOptions);
    return new ScenarioPlan(
        pipeline,
        exercise,
        seed,
        events,
        copy,
        startTimeout,
        catchUpTimeout,
        List.of(),
        null,
        null,
        List.of(exercise));
  }

  /**
   * How many of the leading faults fire in the snapshot phase (armed when the job is submitted).
   */
  public int snapshotPhaseFaults() {
    int count = 0;
    while (count < faults.size()
        && faults.get(count).position() instanceof FaultPosition.SnapshotPhase) {
      count++;
    }
    return count;
  }

  /** Whether a planned fault fires in the snapshot phase, so the baseline is written first. */
  public boolean faultsInSnapshotPhase() {
    return faults.stream().anyMatch(f -> f.position() instanceof FaultPosition.SnapshotPhase);
  }
}
