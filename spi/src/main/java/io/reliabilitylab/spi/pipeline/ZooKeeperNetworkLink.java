package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Says that the Flink cluster's processes reach their ZooKeeper (high availability: leader
 * election, the job graph and checkpoint stores) through a {@link NetworkLink} of the lab. Offered
 * on a cluster of processes the lab starts with a standby JobManager; the lab's own view of the
 * cluster reaches ZooKeeper directly.
 */
@API(status = EXPERIMENTAL)
public interface ZooKeeperNetworkLink extends PipelineCapability {

  /** The link between the cluster's JobManagers and TaskManagers and ZooKeeper. */
  NetworkLink zooKeeperLink();

  /**
   * What the cluster's processes logged since {@code since} about their ZooKeeper sessions and
   * leadership (a session suspended, lost or reconnected; a leadership lost), oldest first, each
   * line naming the process; at most {@code limit} lines. The cluster's own symptoms of a cut link;
   * empty where they cannot be read.
   */
  default List<String> zooKeeperSymptomsSince(Instant since, int limit) {
    return List.of();
  }
}
