package io.reliabilitylab.faults;

import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl.CorruptedRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What a job that failed on a poison record failed with: its restarts since the fault and the root
 * cause of its latest failure, for the fault's evidence (never the record's bytes: the job's
 * exception names the record's partition and offset).
 */
final class PoisonJobFailure {

  private static final Duration LOOK_EVERY = Duration.ofMillis(200);

  private PoisonJobFailure() {}

  /**
   * Where recovery from a poison counts from. A job that {@code failedOnPoison} has recovered only
   * once it got past the record: its consumer group committed an offset beyond it. One that fails
   * on it at every restart never does, though it runs, checkpoints and commits between failures, so
   * its recovery times out saying so. Any other job recovers from the fault on as usual.
   *
   * @param corrupted the corrupted record, null if none was sent
   */
  static RecoveryStart pastThePoison(
      Supplier<Boolean> failedOnPoison,
      Supplier<@Nullable CorruptedRecord> corrupted,
      BrokerControl broker,
      Optional<JobControl> job,
      long restartsBefore,
      Clock clock) {
    return (faultAt, timeout) -> {
      CorruptedRecord record = corrupted.get();
      if (!failedOnPoison.get() || record == null) {
        return new RecoveryStart.Moment(faultAt, Map.of());
      }
      PoisonReadPast readPast = new PoisonReadPast(broker, record);
      long deadline = System.nanoTime() + timeout.toNanos();
      String lastProblem = "";
      while (System.nanoTime() < deadline) {
        try {
          if (readPast.check()) {
            return new RecoveryStart.Moment(
                clock.instant(), Map.of("got_past_the_poison", readPast.describe()));
          }
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          lastProblem = "; the group's offsets could not be read: " + e.getMessage();
        }
        Thread.sleep(LOOK_EVERY.toMillis());
      }
      String failure = since(job, restartsBefore);
      throw new TimeoutException(
          "the job never got past the corrupted record at "
              + record.topic()
              + "/"
              + record.partition()
              + "@"
              + record.offset()
              + " within "
              + timeout
              + ": its group never committed an offset beyond it"
              + (failure == null ? "" : " (" + failure + ")")
              + lastProblem);
    };
  }

  /**
   * What the job failed with since it had restarted {@code restartsBefore} times, or null while it
   * has restarted less than twice: once may be for another reason, and a job that fails on the
   * record fails again at once, since it reads it again. Its latest failure's class and message,
   * cut short.
   */
  static @Nullable String since(Optional<JobControl> job, long restartsBefore) {
    if (job.isEmpty() || job.get().restartCount() < restartsBefore + 2) {
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
