package io.reliabilitylab.runner.phase;

import io.reliabilitylab.record.Diagnostics;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.pipeline.JobControl;
import java.util.List;

/**
 * The dump a record keeps when a scenario stops on a timeout or an error: the job's state, failures
 * and last checkpoints and the tables' last snapshots once the pipeline runs, and the source's
 * position. A part that cannot be read is named, never allowed to hide the reason.
 */
final class DiagnosticDump {

  private static final int LAST = 10;

  private DiagnosticDump() {}

  static Diagnostics of(Scenario scenario, String reason) {
    Diagnostics.Builder dump = Diagnostics.builder(reason, scenario.clock().instant());
    RunningPipeline running = scenario.runningOrNull();
    if (running != null) {
      JobControl job = running.job();
      try {
        dump.jobState(job.state())
            .exceptionHistory(job.exceptionHistory())
            .lastCheckpoints(last(job.checkpoints()))
            .detail("job_id", job.jobId())
            .detail("restart_count", job.restartCount());
      } catch (RuntimeException e) {
        dump.detail("job", "unavailable: " + Failures.oneLine(e));
      }
      try {
        dump.lastSnapshots(last(running.snapshots()));
      } catch (Exception e) {
        dump.detail("snapshots", "unavailable: " + Failures.oneLine(e));
      }
    }
    try {
      dump.sourcePosition(scenario.source().position().orElse(null));
    } catch (Exception e) {
      dump.detail("source_position", "unavailable: " + Failures.oneLine(e));
    }
    return dump.build();
  }

  private static <T> List<T> last(List<T> items) {
    return items.subList(Math.max(0, items.size() - LAST), items.size());
  }
}
