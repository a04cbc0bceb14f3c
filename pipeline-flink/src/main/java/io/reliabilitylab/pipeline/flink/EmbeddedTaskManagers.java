package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;

/** The TaskManagers of a pipeline's embedded MiniCluster, terminated inside the lab's JVM. */
final class EmbeddedTaskManagers implements TaskManagerControl {

  private final Supplier<MiniClusterRunner> cluster;
  private final Supplier<JobID> job;

  EmbeddedTaskManagers(Supplier<MiniClusterRunner> cluster, Supplier<JobID> job) {
    this.cluster = cluster;
    this.job = job;
  }

  @Override
  public List<String> taskManagers() {
    try {
      return cluster.get().liveTaskManagersOf(job.get());
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(
          "The TaskManagers of job " + job.get() + " are unavailable: " + e.getMessage(), e);
    }
  }

  @Override
  public void terminate(String taskManagerId) throws Exception {
    cluster.get().terminateTaskManager(taskManagerId);
  }

  @Override
  public String startReplacement() throws Exception {
    return cluster.get().startTaskManager();
  }
}
