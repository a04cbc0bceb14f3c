package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.secret.Redactor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One suite run (several scenarios) at a glance, written next to the run records as {@code
 * suite-<suite_id>.json}: each run's verdict, outcome, recovery time and snapshot diff count, and
 * the exit code of the whole suite.
 *
 * <p>A scenario with a {@linkplain ScenarioInfo#knownHazard() known hazard} reproduces an open
 * upstream defect, so its checks are expected to fail. Each run's {@linkplain Entry#outcome()
 * outcome} and the exit code it {@linkplain Entry#countsAs() counts as} for the suite follow this
 * rule:
 *
 * <ul>
 *   <li>a run with a known hazard that failed only because checks failed — no error stopped it and
 *       every fault was proven to have fired — detected the hazard as expected: outcome {@value
 *       Entry#KNOWN_HAZARD_DETECTED}, counts as passed;
 *   <li>a run with a known hazard that passed did not reproduce it, so it shows neither the hazard
 *       nor its absence: outcome {@value Entry#KNOWN_HAZARD_NOT_REPRODUCED}, counts as
 *       inconclusive;
 *   <li>any other run with a known hazard (stopped by an error, a fault not proven or skipped, an
 *       inconclusive check) and every run without one: outcome is its verdict in lower case ({@code
 *       passed}, {@code failed}, {@code inconclusive}), counts as its own exit code.
 * </ul>
 *
 * <p>{@code SuiteSummary.of(RunId.next(start), start, end, Redactor.commandLine(args), records)}
 *
 * @param schemaVersion the version of this format, {@value RunRecord#SCHEMA_VERSION}
 * @param suiteId an id of the same form as a run id
 * @param startedAt when the suite started
 * @param finishedAt when it finished
 * @param command the command line, secrets masked
 * @param runs one entry per run, in run order
 * @param verdict the worst of what the runs count as
 * @param exitCode the suite's exit code from what each run counts as: failed over
 *     usage-or-environment over inconclusive
 * @param passed whether every run counts as passed (a known hazard detected does)
 */
@API(status = STABLE)
public record SuiteSummary(
    int schemaVersion,
    String suiteId,
    Instant startedAt,
    Instant finishedAt,
    String command,
    List<Entry> runs,
    Verdict verdict,
    ExitCode exitCode,
    boolean passed) {

  public SuiteSummary {
    if (schemaVersion != RunRecord.SCHEMA_VERSION) {
      throw new IllegalArgumentException(
          "This lab handles suite summaries of schema version "
              + RunRecord.SCHEMA_VERSION
              + ", not "
              + schemaVersion);
    }
    RunId.requireValid(suiteId);
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    command = Redactor.redact(Objects.requireNonNull(command, "command"));
    runs = List.copyOf(runs);
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(exitCode, "exitCode");
  }

  /**
   * The summary of a suite's runs. Its exit code is 1 if any run counts as failed, else 2 if any
   * run was stopped by a usage or environment error, else 3 if any run counts as inconclusive (or
   * there was no run), else 0; a run with a known hazard counts as the class comment says.
   */
  public static SuiteSummary of(
      String suiteId, Instant startedAt, Instant finishedAt, String command, List<RunRecord> runs) {
    List<Entry> entries = runs.stream().map(Entry::of).toList();
    ExitCode exitCode = suiteExitCode(entries.stream().map(Entry::countsAs).toList());
    Verdict verdict =
        switch (exitCode) {
          case PASSED -> Verdict.PASSED;
          case FAILED -> Verdict.FAILED;
          case USAGE_OR_ENVIRONMENT, INCONCLUSIVE -> Verdict.INCONCLUSIVE;
        };
    return new SuiteSummary(
        RunRecord.SCHEMA_VERSION,
        suiteId,
        startedAt,
        finishedAt,
        command,
        entries,
        verdict,
        exitCode,
        exitCode == ExitCode.PASSED);
  }

  /** The runs that detected their known hazard as expected, in run order. */
  public List<Entry> knownHazardsDetected() {
    return runs.stream().filter(Entry::knownHazardDetected).toList();
  }

  /** The exit code of a suite whose runs count as {@code codes}. */
  public static ExitCode suiteExitCode(List<ExitCode> codes) {
    if (codes.isEmpty()) {
      return ExitCode.INCONCLUSIVE;
    }
    for (ExitCode precedence :
        List.of(ExitCode.FAILED, ExitCode.USAGE_OR_ENVIRONMENT, ExitCode.INCONCLUSIVE)) {
      if (codes.contains(precedence)) {
        return precedence;
      }
    }
    return ExitCode.PASSED;
  }

  /**
   * One run of the suite.
   *
   * @param runId the run's id; its record is {@code <run_id>.json} in the same directory
   * @param pipeline the pipeline
   * @param scenario the scenario's name
   * @param variant its variant, if any
   * @param knownHazard the upstream defect the scenario is expected to expose, if any
   * @param verdict the run's own verdict
   * @param exitCode the run's own exit code
   * @param outcome what the run means for the suite: {@value #KNOWN_HAZARD_DETECTED}, {@value
   *     #KNOWN_HAZARD_NOT_REPRODUCED}, or the verdict in lower case; see {@link SuiteSummary}
   * @param recoveryTime the longest recovery of the run's faults, written in milliseconds
   * @param snapshotDiffCount the run's final snapshot diff count
   */
  @API(status = STABLE)
  public record Entry(
      String runId,
      String pipeline,
      String scenario,
      @Nullable String variant,
      @Nullable String knownHazard,
      Verdict verdict,
      ExitCode exitCode,
      String outcome,
      @JsonProperty("recovery_ms") @Nullable Duration recoveryTime,
      long snapshotDiffCount) {

    /** The outcome of a run that failed its checks because of its known hazard, as expected. */
    public static final String KNOWN_HAZARD_DETECTED = "known-hazard-detected";

    /** The outcome of a run with a known hazard that passed: the hazard did not show. */
    public static final String KNOWN_HAZARD_NOT_REPRODUCED = "known-hazard-not-reproduced";

    public Entry {
      RunId.requireValid(runId);
      Objects.requireNonNull(pipeline, "pipeline");
      Objects.requireNonNull(scenario, "scenario");
      knownHazard = Redactor.redactNullable(knownHazard);
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(exitCode, "exitCode");
      Objects.requireNonNull(outcome, "outcome");
      requireConsistentOutcome(runId, knownHazard, verdict, outcome);
      recoveryTime = Durations.millis(recoveryTime);
    }

    /**
     * What a run with this summary means for the suite: {@value #KNOWN_HAZARD_DETECTED} when a run
     * with a known hazard failed only because checks failed (no error, no fault not proven or
     * skipped), {@value #KNOWN_HAZARD_NOT_REPRODUCED} when it passed, else the verdict in lower
     * case.
     */
    public static String outcome(Summary summary, @Nullable String knownHazard) {
      Objects.requireNonNull(summary, "summary");
      if (knownHazard != null) {
        if (summary.verdict() == Verdict.FAILED
            && summary.checksFailed() > 0
            && summary.error() == null
            && summary.faultsNotProven() == 0
            && summary.faultsSkipped() == 0) {
          return KNOWN_HAZARD_DETECTED;
        }
        if (summary.verdict() == Verdict.PASSED) {
          return KNOWN_HAZARD_NOT_REPRODUCED;
        }
      }
      return lowerCase(summary.verdict());
    }

    /** The entry for a run record. */
    public static Entry of(RunRecord run) {
      Duration longest =
          run.faults().stream()
              .map(FaultRecord::recoveryTime)
              .filter(Objects::nonNull)
              .max(Duration::compareTo)
              .orElse(null);
      String hazard = run.scenario().knownHazard();
      return new Entry(
          run.runId(),
          run.scenario().pipeline(),
          run.scenario().name(),
          run.scenario().variant(),
          hazard,
          run.summary().verdict(),
          run.summary().exitCode(),
          outcome(run.summary(), hazard),
          longest,
          run.summary().snapshotDiffCount());
    }

    /** Whether the run detected its known hazard as expected. */
    public boolean knownHazardDetected() {
      return KNOWN_HAZARD_DETECTED.equals(outcome);
    }

    /**
     * The exit code this run counts as for the suite: passed for a known hazard detected,
     * inconclusive for one not reproduced, else the run's own exit code.
     */
    public ExitCode countsAs() {
      return switch (outcome) {
        case KNOWN_HAZARD_DETECTED -> ExitCode.PASSED;
        case KNOWN_HAZARD_NOT_REPRODUCED -> ExitCode.INCONCLUSIVE;
        default -> exitCode;
      };
    }

    private static String lowerCase(Verdict verdict) {
      return verdict.name().toLowerCase(Locale.ROOT);
    }

    private static void requireConsistentOutcome(
        String runId, @Nullable String knownHazard, Verdict verdict, String outcome) {
      boolean consistent =
          switch (outcome) {
            case KNOWN_HAZARD_DETECTED -> knownHazard != null && verdict == Verdict.FAILED;
            case KNOWN_HAZARD_NOT_REPRODUCED -> knownHazard != null && verdict == Verdict.PASSED;
            default -> outcome.equals(lowerCase(verdict));
          };
      if (!consistent) {
        throw new IllegalArgumentException(
            "Run "
                + runId
                + " has outcome '"
                + outcome
                + "' with verdict "
                + verdict
                + (knownHazard == null ? " and no known hazard" : " and a known hazard")
                + "; expected '"
                + KNOWN_HAZARD_DETECTED
                + "' (known hazard, FAILED), '"
                + KNOWN_HAZARD_NOT_REPRODUCED
                + "' (known hazard, PASSED) or the verdict in lower case;"
                + " build entries with Entry.of(record)");
      }
    }
  }
}
