package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.oracle.Oracle;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What an {@link Exercise} works with: the running pipeline, the source, the workload with the
 * count of transactions the baseline wrote, a deadline for its waits, a directory of its own, the
 * clock and the run's record.
 */
@API(status = EXPERIMENTAL)
public record ExerciseContext(
    PipelineUnderTest pipeline,
    CdcSource source,
    Workload workload,
    int baselineCount,
    Duration timeout,
    Path directory,
    Clock clock,
    RunRecord.Builder record) {

  /**
   * Waits until the sink holds the whole workload, by the lifecycle's own criterion: the last
   * written event and the deletes after it.
   *
   * @throws WaitTimedOutException at the deadline, saying which table lagged
   */
  public CatchUp.Point awaitCatchUp() throws Exception {
    TableAccess tables = Capabilities.require(pipeline, TableAccess.class, "to await catch-up");
    return CatchUp.await(tables, Oracle.expect(workload), timeout, clock);
  }

  /** The transactions the exercise must write: the workload after the baseline. */
  public List<SourceTransaction> rest() {
    List<SourceTransaction> all = workload.transactions();
    return all.subList(baselineCount, all.size());
  }
}
