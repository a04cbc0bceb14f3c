package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A Flink cluster the lab submits jobs to and watches through its REST API: an embedded MiniCluster
 * ({@link MiniClusterRunner}) or a session cluster ({@link RestFlinkCluster}).
 */
@API(status = EXPERIMENTAL)
public interface FlinkCluster extends AutoCloseable {

  /** The cluster's REST endpoint. */
  URI restAddress();

  /** Builds and submits a job; returns when the cluster accepted it. */
  default JobID submit(FlinkJob job) throws Exception {
    return submit(job, null);
  }

  /** Builds and submits a job restored from a savepoint or retained checkpoint, if given. */
  default JobID submit(FlinkJob job, @Nullable String restorePath) throws Exception {
    return submit(job, restorePath, null);
  }

  /**
   * Builds and submits a job restored from {@code restorePath}, if given, under {@code jobId}, if
   * given (as Flink's application mode fixes it); the cluster refuses an id it ran before.
   */
  JobID submit(FlinkJob job, @Nullable String restorePath, @Nullable JobID jobId) throws Exception;

  JobStatus status(JobID job) throws Exception;

  /** How many times the job restarted (Flink's {@code numRestarts} metric). */
  long restartCount(JobID job) throws Exception;

  /** The job's exception history, oldest first. */
  List<JobFailure> exceptionHistory(JobID job) throws Exception;

  /** The checkpoints the cluster remembers for the job, oldest first. */
  List<CheckpointInfo> checkpoints(JobID job) throws Exception;

  void cancel(JobID job) throws Exception;

  /** Stops the job with a savepoint in {@code directory} and returns the savepoint's path. */
  String stopWithSavepoint(JobID job, Path directory) throws Exception;

  /** Takes a savepoint in {@code directory} while the job keeps running; returns its path. */
  String triggerSavepoint(JobID job, Path directory) throws Exception;

  /** Waits until the job and all its tasks run. */
  void awaitRunning(JobID job, Duration timeout) throws Exception;

  /** Waits for the first checkpoint triggered at or after {@code after} to complete. */
  CheckpointInfo awaitCompletedCheckpointAfter(JobID job, Instant after, Duration timeout)
      throws Exception;

  /** Releases the client; a cluster this object started is stopped. */
  @Override
  void close();

  /**
   * Cancels the job unless it has ended, and waits until it has: on a shared cluster a cancelled
   * job's tasks would otherwise go on writing into its scenario's directories after the caller
   * moved on.
   *
   * @throws TimeoutException when the job is not in a terminal state within {@code timeout}
   */
  default void cancelAndAwaitEnd(JobID job, Duration timeout) throws Exception {
    JobStatus status = status(job);
    if (status.isGloballyTerminalState()) {
      return;
    }
    cancel(job);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!(status = status(job)).isGloballyTerminalState()) {
      if (System.nanoTime() >= deadline) {
        throw timeout("job " + job + " to end after its cancellation", timeout, status.name());
      }
      Thread.sleep(100);
    }
  }

  /** What a cluster's health probe finds wrong: empty when nothing is. */
  @FunctionalInterface
  interface HealthProbe {
    String problems() throws Exception;
  }

  /**
   * Polls {@code probe} every {@code poll} until it finds nothing wrong, or throws at {@code
   * deadline} (a {@link System#nanoTime()}) with what it found last.
   */
  static void awaitHealthy(
      String what, Duration timeout, long deadline, Duration poll, HealthProbe probe)
      throws Exception {
    String last = "nothing";
    while (System.nanoTime() < deadline) {
      try {
        last = probe.problems();
        if (last.isEmpty()) {
          return;
        }
      } catch (Exception e) {
        last = e.toString();
      }
      Thread.sleep(poll.toMillis());
    }
    throw timeout(what + " to be healthy", timeout, last);
  }

  /** Thrown by the awaiting methods when the deadline passes. */
  static TimeoutException timeout(String what, Duration timeout, String lastSeen) {
    return new TimeoutException(
        "Waited " + timeout.toMillis() + " ms for " + what + "; last seen: " + lastSeen);
  }
}
