package io.reliabilitylab.harness.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.reliabilitylab.harness.ExitCode;
import io.reliabilitylab.harness.secrets.Redactor;
import io.reliabilitylab.spi.check.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One suite run (several scenarios) at a glance, written next to the run records as {@code
 * suite-<suite_id>.json}: each run's verdict, recovery time and snapshot diff count, and the exit
 * code of the whole suite.
 *
 * <p>{@code SuiteSummary.of(RunId.next(start), start, end, Redactor.commandLine(args), records)}
 *
 * @param schemaVersion the version of this format, {@value RunRecord#SCHEMA_VERSION}
 * @param suiteId an id of the same form as a run id
 * @param startedAt when the suite started
 * @param finishedAt when it finished
 * @param command the command line, secrets masked
 * @param runs one entry per run, in run order
 * @param verdict the worst verdict of the runs
 * @param exitCode the suite's exit code: failed over usage-or-environment over inconclusive
 * @param passed whether every run passed
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
   * The summary of a suite's runs. Its exit code is 1 if any run failed, else 2 if any run was
   * stopped by a usage or environment error, else 3 if any run was inconclusive (or there was no
   * run), else 0.
   */
  public static SuiteSummary of(
      String suiteId, Instant startedAt, Instant finishedAt, String command, List<RunRecord> runs) {
    List<Entry> entries = runs.stream().map(Entry::of).toList();
    ExitCode exitCode = suiteExitCode(entries.stream().map(Entry::exitCode).toList());
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

  /** The exit code of a suite whose runs exited with {@code codes}. */
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
   * @param verdict the run's verdict
   * @param exitCode the run's exit code
   * @param recoveryTime the longest recovery of the run's faults, written in milliseconds
   * @param snapshotDiffCount the run's final snapshot diff count
   */
  public record Entry(
      String runId,
      String pipeline,
      String scenario,
      @Nullable String variant,
      Verdict verdict,
      ExitCode exitCode,
      @JsonProperty("recovery_ms") @Nullable Duration recoveryTime,
      long snapshotDiffCount) {

    public Entry {
      RunId.requireValid(runId);
      Objects.requireNonNull(pipeline, "pipeline");
      Objects.requireNonNull(scenario, "scenario");
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(exitCode, "exitCode");
      recoveryTime = Durations.millis(recoveryTime);
    }

    /** The entry for a run record. */
    public static Entry of(RunRecord run) {
      Duration longest =
          run.faults().stream()
              .map(FaultRecord::recoveryTime)
              .filter(Objects::nonNull)
              .max(Duration::compareTo)
              .orElse(null);
      return new Entry(
          run.runId(),
          run.scenario().pipeline(),
          run.scenario().name(),
          run.scenario().variant(),
          run.summary().verdict(),
          run.summary().exitCode(),
          longest,
          run.summary().snapshotDiffCount());
    }
  }
}
