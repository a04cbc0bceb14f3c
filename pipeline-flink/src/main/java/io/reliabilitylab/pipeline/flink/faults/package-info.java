/**
 * The reference jobs' built-in fault points (split enumerator, operator, checkpoint storage,
 * Iceberg commit), no-ops until armed: in the lab's JVM (a MiniCluster) through {@link
 * io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard}, in every JVM of a cluster through a
 * {@link io.reliabilitylab.pipeline.flink.faults.FaultChannel}.
 *
 * <p>A fault channel is a control directory. On a user's own session cluster it needs: the
 * directory on a file system that the lab and every JobManager and TaskManager of the cluster share
 * (NFS or the like, with exclusive file creation), and the lab's jar on the cluster's class path
 * ({@code lib/}), so the points, their watcher and the switchboard are loaded once per JVM. The
 * checkpoint-storage point finds the channel through a link file the job writes into its checkpoint
 * directory (which a cluster shares for recovery anyway), or through the configuration key {@code
 * srl.fault-channel} in the cluster's {@code config.yaml} (or the same JVM system property). A
 * cluster whose machines share no file system cannot use the channel: no watcher answers the lab's
 * round trip, and the lab then does not offer fault points on it.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.faults;

import org.jspecify.annotations.NullMarked;
