package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.spi.check.CheckResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What an exploration did and found, written as {@code explore-<id>.json} next to the run records
 * of its tries.
 *
 * @param format names this file's layout
 * @param exploreId the exploration's id
 * @param pipeline the pipeline's name
 * @param options the pipeline options (secret values masked)
 * @param command the command line (secrets masked)
 * @param started when the exploration began
 * @param finished when it ended
 * @param seed jqwik's seed: the same seed, tries and space draw the same cases
 * @param settings tries, workload bounds and the shrinking bounds
 * @param exitCode 0 when every try passed, 1 when a case failed, 2 when the lab itself broke
 * @param tries every run: the drawn cases, then those tried while shrinking
 * @param coverage each fault variant × kind of position the space holds, with how many drawn cases
 *     placed a fault there (0: not explored)
 * @param finding the failure found and its shrunk form, if a case failed
 * @param problem what stopped the exploration, if the lab broke
 */
@API(status = EXPERIMENTAL)
public record ExploreReport(
    String format,
    String exploreId,
    String pipeline,
    Map<String, String> options,
    String command,
    Instant started,
    Instant finished,
    @Nullable String seed,
    ExploreSettings settings,
    ExitCode exitCode,
    List<TrialSummary> tries,
    Map<String, Integer> coverage,
    @Nullable Finding finding,
    @Nullable String problem) {

  /** This layout's name. */
  public static final String FORMAT = "reliability-lab explore report v1";

  public ExploreReport {
    options = Map.copyOf(options);
    tries = List.copyOf(tries);
    coverage = Map.copyOf(coverage);
  }

  /** One run of a case, in brief; its run record holds the rest. */
  public record TrialSummary(
      int number,
      Trial.Phase phase,
      String schedule,
      List<String> positions,
      long changes,
      int transactions,
      String workloadDigest,
      ExitCode exitCode,
      List<String> failures,
      @Nullable String runId,
      Duration took) {

    public TrialSummary {
      positions = List.copyOf(positions);
      failures = List.copyOf(failures);
    }

    static TrialSummary of(Trial trial) {
      return new TrialSummary(
          trial.number(),
          trial.phase(),
          trial.exploreCase().scheduleText(),
          trial.positions(),
          trial.exploreCase().workload().changeCount(),
          trial.exploreCase().workload().transactions().size(),
          trial.workloadDigest(),
          trial.exitCode(),
          trial.failures(),
          trial.runId(),
          trial.took());
    }
  }

  /**
   * A failing case and the minimal case shrinking reached.
   *
   * @param original the drawn case that failed first
   * @param minimal the smallest case that still fails the same way
   * @param minimalChanges the minimal workload, one line per transaction and change
   * @param failingChecks the minimal case's failed checks, with their evidence
   * @param shrinkTries cases run while shrinking
   * @param shrinkSkipped cases jqwik proposed past the shrink-try cap, not run
   * @param shrinkTime from the first failure to the last shrinking run
   * @param caseFile the minimal case's file, for {@code replay}
   * @param replayCommand the command that replays the minimal case
   */
  public record Finding(
      TrialSummary original,
      TrialSummary minimal,
      List<String> minimalChanges,
      List<CheckResult> failingChecks,
      int shrinkTries,
      int shrinkSkipped,
      Duration shrinkTime,
      String caseFile,
      String replayCommand) {

    public Finding {
      minimalChanges = List.copyOf(minimalChanges);
      failingChecks = List.copyOf(failingChecks);
    }
  }
}
