package io.reliabilitylab.faults;

import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a job that failed on a poison record failed with: its restarts since the fault and the root
 * cause of its latest failure, for the fault's evidence (never the record's bytes: the job's
 * exception names the record's partition and offset).
 */
final class PoisonJobFailure {

  private PoisonJobFailure() {}

  /**
   * What the job failed with since it had restarted {@code restartsBefore} times, or null while it
   * has not restarted: its latest failure's class and message, cut short.
   */
  static @Nullable String since(Optional<JobControl> job, long restartsBefore) {
    if (job.isEmpty() || job.get().restartCount() <= restartsBefore) {
      return null;
    }
    List<JobFailure> history = job.get().exceptionHistory();
    String failure =
        history.isEmpty()
            ? "no failure in the job's exception history"
            : rootCause(history.get(history.size() - 1).message());
    return "restarted "
        + (job.get().restartCount() - restartsBefore)
        + " time(s), last with "
        + (failure.length() > 300 ? failure.substring(0, 300) + "…" : failure);
  }

  /**
   * A failure's innermost cause, from its stack trace: the last "Caused by:" line, or the first.
   */
  static String rootCause(String stackTrace) {
    String root = stackTrace.lines().findFirst().orElse("").strip();
    for (String line : stackTrace.lines().toList()) {
      if (line.startsWith("Caused by: ")) {
        root = line.substring("Caused by: ".length()).strip();
      }
    }
    return root;
  }
}
