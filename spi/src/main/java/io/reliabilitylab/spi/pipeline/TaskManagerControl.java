package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Loses and replaces TaskManagers. On an embedded cluster a TaskManager is terminated inside the
 * lab's JVM, not killed as a process: record that as the claim boundary.
 */
@API(status = STABLE)
public interface TaskManagerControl extends PipelineCapability {

  /** Ids of the live TaskManagers that run tasks of the job. */
  List<String> taskManagers();

  /** Terminates one TaskManager abruptly. */
  void terminate(String taskManagerId) throws Exception;

  /** Starts a TaskManager so that a job that lost one can be scheduled again; returns its id. */
  String startReplacement() throws Exception;
}
