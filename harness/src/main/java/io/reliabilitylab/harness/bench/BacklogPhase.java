package io.reliabilitylab.harness.bench;

import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.oracle.Oracle;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The bench's backlog phase, the pipeline's own ceiling: stops the job with a savepoint, writes the
 * backlog while nothing reads it, restores the job and waits until both tables hold the backlog —
 * the pipeline's rate without the writer in the way (the broker pipeline's engine keeps publishing
 * meanwhile; its topic holds the backlog).
 */
final class BacklogPhase {

  private final ChangeWriter writer;
  private final Duration timeout;
  private final SinkWatch watch;
  private final String label;

  /** A phase writing through {@code writer} at full speed, each wait within {@code timeout}. */
  BacklogPhase(ChangeWriter writer, Duration timeout, SinkWatch watch, String label) {
    this.writer = writer;
    this.timeout = timeout;
    this.watch = watch;
    this.label = label;
  }

  BenchReport.Backlog run(
      PipelineUnderTest pipeline,
      JobControl job,
      TableAccess tables,
      ChangelogWalk walk,
      List<SourceTransaction> backlog)
      throws Exception {
    Optional<SavepointControl> savepoints = pipeline.capability(SavepointControl.class);
    if (savepoints.isEmpty() || backlog.isEmpty()) {
      String reason =
          savepoints.isEmpty()
              ? "the pipeline cannot stop its job with a savepoint"
              : "no changes left for it";
      watch.say(label + "backlog: skipped, " + reason);
      return BenchReport.Backlog.skipped(reason);
    }
    String savepoint = savepoints.get().stopWithSavepoint(timeout);
    WriteReport written = writer.write(backlog);
    Instant restoreAt = watch.clock().instant();
    savepoints.get().restore(savepoint, parallelism(pipeline));
    job.awaitRunning(timeout);
    Instant runningAt = watch.clock().instant();
    SinkWatch.Visible visible =
        watch.awaitVisible(tables, walk, Oracle.envelopes(backlog), (snapshot, event) -> {});
    Duration took = Duration.between(restoreAt, visible.at());
    double rate = Stats.perSecond(written.changes(), took);
    watch.say(
        label
            + "backlog: %d events written with the job stopped, visible in both tables %d ms"
            + " after the restore call (running after %d ms) = %.0f events/s",
        written.changes(),
        took.toMillis(),
        Duration.between(restoreAt, runningAt).toMillis(),
        rate);
    return new BenchReport.Backlog(
        written.changes(),
        Duration.between(restoreAt, runningAt).toMillis(),
        took.toMillis(),
        Stats.round(rate),
        null);
  }

  private static int parallelism(PipelineUnderTest pipeline) {
    String value = pipeline.effectiveConfiguration().get("parallelism.default");
    try {
      return value == null ? 1 : Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      return 1;
    }
  }
}
