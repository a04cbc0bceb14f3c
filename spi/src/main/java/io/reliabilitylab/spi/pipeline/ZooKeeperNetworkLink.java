package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
}
