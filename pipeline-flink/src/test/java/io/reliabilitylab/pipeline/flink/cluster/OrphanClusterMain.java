package io.reliabilitylab.pipeline.flink.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A lab stand-in for the orphan test: starts a process cluster in {@code args[0]} (with {@code
 * args[1]} TaskManagers, default 1), prints {@code READY} and the pids of its processes, then waits
 * to be killed.
 */
public final class OrphanClusterMain {
  private OrphanClusterMain() {}

  public static void main(String[] args) throws Exception {
    ProcessFlinkCluster cluster =
        ProcessFlinkCluster.start(
            ProcessClusterSettings.builder()
                .taskManagers(args.length > 1 ? Integer.parseInt(args[1]) : 1)
                .build(),
            Path.of(args[0]));
    List<Long> pids = new ArrayList<>();
    cluster.jobManagerProcesses().forEach(jm -> pids.add(jm.pid()));
    cluster.taskManagerProcesses().forEach(tm -> pids.add(tm.pid()));
    System.out.println("READY " + pids);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
