package io.reliabilitylab.pipeline.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A shared MiniCluster serves one lease at a time, comes back as good as new after a scenario that
 * left a job running and a TaskManager terminated, and is replaced after it is lost.
 */
class SharedMiniClustersIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  // Settings of their own, so that no other test class in this JVM shares these clusters.
  private static final MiniClusterSettings SETTINGS =
      MiniClusterSettings.builder().taskManagers(2).slotsPerTaskManager(2).build();

  @AfterAll
  static void stopClusters() {
    SharedMiniClusters.closeAll();
  }

  @Test
  void aDamagedClusterIsMadeHealthyAndReusedAndALostOneIsReplaced() throws Exception {
    MiniClusterRunner first;
    JobID leftRunning;
    String terminated;
    try (ClusterLease<MiniClusterRunner> lease = SharedMiniClusters.acquire(SETTINGS)) {
      first = lease.cluster();
      leftRunning = lease.submit(new CountingJob());
      lease.awaitRunning(leftRunning, TIMEOUT);
      lease.awaitCompletedCheckpointAfter(leftRunning, Instant.now(), TIMEOUT);
      terminated = first.liveTaskManagersOf(leftRunning).get(0);
      first.terminateTaskManager(terminated);

      // While this lease holds the cluster, another pipeline gets a cluster of its own.
      try (ClusterLease<MiniClusterRunner> concurrent = SharedMiniClusters.acquire(SETTINGS)) {
        assertThat(concurrent.cluster()).isNotSameAs(first);
        assertThat(concurrent.restAddress()).isNotEqualTo(first.restAddress());
      }
    } // the job is left running and a TaskManager is gone

    try (ClusterLease<MiniClusterRunner> lease = SharedMiniClusters.acquire(SETTINGS)) {
      assertThat(lease.cluster()).isSameAs(first);
      assertThat(lease.status(leftRunning)).isEqualTo(JobStatus.CANCELED);
      assertThat(first.taskManagerIds()).hasSize(2).doesNotContain(terminated);
      JobID next = lease.submit(new CountingJob());
      lease.awaitRunning(next, TIMEOUT);
      lease.awaitCompletedCheckpointAfter(next, Instant.now(), TIMEOUT);
      SharedMiniClusters.lose(first);
    }
    assertThat(first.closed()).isTrue();

    try (ClusterLease<MiniClusterRunner> lease = SharedMiniClusters.acquire(SETTINGS)) {
      assertThat(lease.cluster()).isNotSameAs(first);
      JobID afterLoss = lease.submit(new CountingJob());
      lease.awaitRunning(afterLoss, TIMEOUT);
    }
  }
}
