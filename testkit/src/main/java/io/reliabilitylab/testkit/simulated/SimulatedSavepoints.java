package io.reliabilitylab.testkit.simulated;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@link SavepointControl} of a {@link SimulatedPipeline}: savepoints are directories under the
 * pipeline's own, a restore starts a new job (or, after {@link #loseCluster()}, the same job id on
 * a fresh cluster, whose committer then skips the commits it believes done, as Iceberg's does).
 */
final class SimulatedSavepoints implements SavepointControl {

  private final SimulatedPipeline pipeline;
  private final JobSimulation job;

  SimulatedSavepoints(SimulatedPipeline pipeline, JobSimulation job) {
    this.pipeline = pipeline;
    this.job = job;
  }

  @Override
  public String stopWithSavepoint(Duration timeout) throws IOException {
    synchronized (pipeline) {
      String savepoint = savepoint();
      job.state = JobState.FINISHED;
      pipeline.notifyAll();
      return savepoint;
    }
  }

  @Override
  public String restore(String path, int parallelism) {
    synchronized (pipeline) {
      if (!Files.isDirectory(Path.of(path))) {
        throw new IllegalArgumentException("no savepoint at " + path);
      }
      job.jobId = "job-" + ++job.jobs;
      return runningAgain(parallelism);
    }
  }

  @Override
  public String triggerSavepoint(Duration timeout) throws IOException {
    synchronized (pipeline) {
      if (job.cannotSavepointWhileRunning) {
        throw new UnsupportedOperationException(
            "this simulated pipeline only stops with a savepoint");
      }
      String savepoint = savepoint();
      pipeline.notifyAll();
      return savepoint;
    }
  }

  /** A completed savepoint of the running job, committed at once. */
  private String savepoint() throws IOException {
    if (job.state != JobState.RUNNING) {
      throw new IllegalStateException("job " + job.jobId + " is " + job.state + ", not RUNNING");
    }
    long id = ++job.checkpointCounter;
    Path savepoint = Files.createDirectories(job.directory.resolve("savepoint-" + id));
    Instant at = Instant.now();
    job.checkpoints.add(
        new CheckpointInfo(id, "COMPLETED", at, at, savepoint.toString(), null, null, true));
    job.pendingCommits.add(id);
    job.commitPending();
    return savepoint.toString();
  }

  @Override
  public String restoreKeepingJobId(String path, int parallelism) {
    synchronized (pipeline) {
      if (!job.clusterLost) {
        throw new IllegalStateException("a job id can be reused only on a fresh cluster");
      }
      String name = Path.of(path).getFileName().toString();
      if (!Files.isDirectory(Path.of(path)) || !name.startsWith("savepoint-")) {
        throw new IllegalArgumentException("no savepoint at " + path);
      }
      long restoredId = Long.parseLong(name.substring("savepoint-".length()));
      job.skipCommitsUpTo =
          job.snapshots.get(SimulatedPipeline.CURRENT).stream()
              .filter(s -> job.jobId.equals(s.flinkJobId()) && s.committedCheckpointId() != null)
              .mapToLong(s -> s.committedCheckpointId() == null ? -1 : s.committedCheckpointId())
              .max()
              .orElse(-1);
      job.checkpointCounter = restoredId; // Flink numbers on from the restored checkpoint
      job.checkpoints.clear(); // a fresh cluster's history
      return runningAgain(parallelism);
    }
  }

  @Override
  public void loseCluster() {
    synchronized (pipeline) {
      if (job.cannotLoseCluster) {
        throw new UnsupportedOperationException("this simulated pipeline cannot lose its cluster");
      }
      job.clusterLost = true;
      job.state = JobState.FAILED;
      job.inFlight = null;
      job.pendingCommits.clear(); // what was not committed dies with the cluster; state has it
      pipeline.notifyAll();
    }
  }

  @Override
  public String latestRetainedCheckpoint() {
    synchronized (pipeline) {
      return job.checkpoints.stream()
          .filter(c -> c.completed() && !c.savepoint())
          .reduce((a, b) -> b)
          .map(CheckpointInfo::externalPath)
          .orElseThrow(() -> new IllegalStateException("no checkpoint retained yet"));
    }
  }

  /** The restored job, running at {@code parallelism} with a fresh restart count and history. */
  private String runningAgain(int parallelism) {
    job.clusterLost = false;
    job.restarts = 0;
    job.history.clear();
    job.configuration.put("parallelism.default", Integer.toString(parallelism));
    job.state = JobState.RUNNING;
    pipeline.notifyAll();
    return job.jobId;
  }
}
