package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The JobManagers of a highly available cluster, each an operating-system process: which one leads,
 * killing one with SIGKILL, and starting it again so that it rejoins as a standby. Offered only
 * where the lab started the JobManagers itself with a standby and ZooKeeper.
 */
@API(status = EXPERIMENTAL)
public interface JobManagerControl extends PipelineCapability {

  /**
   * One JobManager process.
   *
   * @param id the lab's name for it ({@code jm-1}), stable across restarts
   * @param pid its process id now
   * @param restAddress its own REST endpoint
   * @param alive whether its process runs
   * @param leader whether it leads the cluster now
   */
  @API(status = EXPERIMENTAL)
  record JobManager(String id, long pid, String restAddress, boolean alive, boolean leader) {

    public JobManager {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(restAddress, "restAddress");
    }
  }

  /** Every JobManager, in the order the lab started them. */
  List<JobManager> jobManagers() throws Exception;

  /** The JobManager that leads now; empty during an election. */
  Optional<JobManager> leader() throws Exception;

  /** Sends SIGKILL to a JobManager and returns its exit status (137) once it exited. */
  int kill(String jobManagerId) throws Exception;

  /** Starts a killed JobManager again with its configuration; it joins as a standby. */
  JobManager restart(String jobManagerId) throws Exception;
}
