package io.reliabilitylab.runner.suite;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.SuiteSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a suite left behind: each scenario's record in the order they ran, the summary, and the
 * directory that holds them.
 *
 * @param records one record per scenario
 * @param summary the suite's summary, as written to {@code suite-<id>.json}
 * @param outDirectory where the records and the summary are
 */
@API(status = EXPERIMENTAL)
public record SuiteResult(List<RunRecord> records, SuiteSummary summary, Path outDirectory) {

  public SuiteResult {
    records = List.copyOf(records);
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(outDirectory, "outDirectory");
  }

  /** The suite's exit code: 0 only when every scenario passed (or caught its known hazard). */
  public ExitCode exitCode() {
    return summary.exitCode();
  }
}
