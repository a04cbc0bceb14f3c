package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One explored case as a file that {@code reliability-lab replay} runs again: the pipeline and its
 * options, the changes and the schedule, and what the case showed, to compare the replay with.
 *
 * @param format names this file's layout
 * @param pipeline the pipeline's name
 * @param options the pipeline options the explorer ran with (secret values masked: pass them again
 *     to replay)
 * @param exploreCase the changes and the schedule
 * @param workloadDigest the SHA-256 of the workload the changes stand for
 * @param positions where each fault was placed, as planned
 * @param exitCode the exit code the case gave
 * @param failures what kept it from passing (empty when it passed)
 * @param exploreSeed the explorer's jqwik seed, if it drew the case
 */
@API(status = EXPERIMENTAL)
public record CaseFile(
    String format,
    String pipeline,
    Map<String, String> options,
    ExploreCase exploreCase,
    String workloadDigest,
    List<String> positions,
    ExitCode exitCode,
    List<String> failures,
    @Nullable String exploreSeed) {

  /** This layout's name; bump it when the layout changes. */
  public static final String FORMAT = "reliability-lab explore case v1";

  public CaseFile {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(pipeline, "pipeline");
    options = Map.copyOf(options);
    Objects.requireNonNull(exploreCase, "exploreCase");
    positions = List.copyOf(positions);
    failures = List.copyOf(failures);
  }

  /** The file of a trial. */
  public static CaseFile of(
      String pipeline, Map<String, String> options, Trial trial, @Nullable String exploreSeed) {
    return new CaseFile(
        FORMAT,
        pipeline,
        options,
        trial.exploreCase(),
        trial.workloadDigest(),
        trial.positions(),
        trial.exitCode(),
        trial.failures(),
        exploreSeed);
  }

  /**
   * Whether a replay showed the same: the same workload, the same placed positions, the same exit
   * code and the same failures.
   */
  public boolean sameAs(Trial replay) {
    return workloadDigest.equals(replay.workloadDigest())
        && positions.equals(replay.positions())
        && exitCode == replay.exitCode()
        && failures.equals(replay.failures());
  }
}
