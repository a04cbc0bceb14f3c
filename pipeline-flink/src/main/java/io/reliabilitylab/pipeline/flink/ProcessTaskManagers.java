package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.TaskManagerProcess;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobID;

/** The TaskManager processes of a pipeline's cluster of processes, as the SPI shows them. */
final class ProcessTaskManagers implements TaskManagerProcessControl {

  private final Supplier<ProcessFlinkCluster> cluster;
  private final Supplier<JobID> job;

  ProcessTaskManagers(Supplier<ProcessFlinkCluster> cluster, Supplier<JobID> job) {
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

  /** A SIGKILL: on processes, terminating a TaskManager is killing its JVM. */
  @Override
  public void terminate(String taskManagerId) throws Exception {
    kill(taskManagerId);
  }

  @Override
  public String startReplacement() throws Exception {
    return cluster.get().startTaskManager();
  }

  @Override
  public long pid(String taskManagerId) {
    return process(taskManagerId).pid();
  }

  @Override
  public int kill(String taskManagerId) throws Exception {
    return cluster.get().kill(taskManagerId);
  }

  @Override
  public void pause(String taskManagerId) throws Exception {
    cluster.get().pause(taskManagerId);
  }

  @Override
  public void resume(String taskManagerId) throws Exception {
    cluster.get().resume(taskManagerId);
  }

  @Override
  public Set<String> registeredTaskManagers() throws Exception {
    return cluster.get().registeredTaskManagers();
  }

  @Override
  public Duration heartbeatTimeout() {
    return cluster.get().heartbeatTimeout();
  }

  private TaskManagerProcess process(String taskManagerId) {
    return cluster.get().taskManagerProcesses().stream()
        .filter(p -> p.resourceId().equals(taskManagerId))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "No TaskManager process '"
                        + taskManagerId
                        + "' in this cluster; it has "
                        + cluster.get().taskManagerProcesses().stream()
                            .map(TaskManagerProcess::resourceId)
                            .toList()));
  }
}
