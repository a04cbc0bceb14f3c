package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.URI;
import org.apiguardian.api.API;

/**
 * A JobManager process of a {@link ProcessFlinkCluster}, as seen when asked.
 *
 * @param id its id in the cluster ({@code jm-1}, {@code jm-2})
 * @param pid its operating-system process id (of the current process, after a restart)
 * @param restAddress its own REST endpoint
 * @param alive whether the process runs
 * @param leader whether it leads the cluster now (ZooKeeper names its REST endpoint as the
 *     leader's; without HA the single live JobManager)
 */
@API(status = EXPERIMENTAL)
public record JobManagerProcess(
    String id, long pid, URI restAddress, boolean alive, boolean leader) {}
