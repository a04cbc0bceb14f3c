package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.JobManagerProcess;
import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.spi.pipeline.JobManagerControl;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The JobManager processes of a pipeline's highly available cluster, as the SPI shows them. */
final class ProcessJobManagers implements JobManagerControl {

  private final Supplier<ProcessFlinkCluster> cluster;

  ProcessJobManagers(Supplier<ProcessFlinkCluster> cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<JobManager> jobManagers() throws Exception {
    return cluster.get().jobManagerProcesses().stream().map(ProcessJobManagers::toSpi).toList();
  }

  @Override
  public Optional<JobManager> leader() throws Exception {
    return cluster.get().leader().map(ProcessJobManagers::toSpi);
  }

  @Override
  public int kill(String jobManagerId) throws Exception {
    return cluster.get().killJobManager(jobManagerId);
  }

  @Override
  public JobManager restart(String jobManagerId) throws Exception {
    return toSpi(cluster.get().restartJobManager(jobManagerId));
  }

  private static JobManager toSpi(JobManagerProcess process) {
    return new JobManager(
        process.id(),
        process.pid(),
        process.restAddress().toString(),
        process.alive(),
        process.leader());
  }
}
