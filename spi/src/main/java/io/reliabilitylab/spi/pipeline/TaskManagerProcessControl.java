package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * TaskManagers that are operating-system processes of their own: killed with SIGKILL, frozen with
 * SIGSTOP past the cluster's heartbeat timeout and thawed with SIGCONT. Offered only where the lab
 * started the TaskManagers itself (its multi-process cluster); {@link #terminate} is a SIGKILL
 * there too.
 */
@API(status = EXPERIMENTAL)
public interface TaskManagerProcessControl extends TaskManagerControl {

  /** The operating-system process id of a TaskManager this pipeline's cluster started. */
  long pid(String taskManagerId);

  /** Sends SIGKILL and returns the process's exit status (137) once it exited. */
  int kill(String taskManagerId) throws Exception;

  /** Sends SIGSTOP: the process stays, its heartbeats stop. */
  void pause(String taskManagerId) throws Exception;

  /** Sends SIGCONT to a paused TaskManager. */
  void resume(String taskManagerId) throws Exception;

  /** The TaskManagers the cluster's ResourceManager lists now, with or without tasks of the job. */
  Set<String> registeredTaskManagers() throws Exception;

  /** After how long without a heartbeat the cluster declares a TaskManager lost. */
  Duration heartbeatTimeout();
}
