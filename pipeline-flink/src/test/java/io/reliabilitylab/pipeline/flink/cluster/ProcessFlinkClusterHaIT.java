package io.reliabilitylab.pipeline.flink.cluster;

import static io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkClusterIT.TIMEOUT;
import static io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkClusterIT.await;
import static io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkClusterIT.pgrep;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Two JobManagers and ZooKeeper: the leader SIGKILLed, the standby takes the job over. */
class ProcessFlinkClusterHaIT {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessFlinkClusterHaIT.class);

  @TempDir Path directory;

  @Test
  void theStandbyTakesOverTheJobWhenTheLeaderIsKilled() throws Exception {
    List<Long> pids = new ArrayList<>();
    ProcessFlinkCluster cluster =
        ProcessFlinkCluster.start(ProcessClusterSettings.parse("processes:1tm:2jm"), directory);
    try {
      LOG.info("HA cluster (2 JMs + 1 TM + ZooKeeper) up in {} ms", cluster.startTime().toMillis());
      assertThat(cluster.highAvailability()).isTrue();
      JobID job = cluster.submit(new CountingJob());
      cluster.awaitRunning(job, TIMEOUT);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), TIMEOUT);
      JobManagerProcess leader = cluster.leader().orElseThrow();
      assertThat(cluster.jobManagerProcesses()).filteredOn(JobManagerProcess::leader).hasSize(1);
      assertThat(cluster.restAddress()).isEqualTo(leader.restAddress());

      Instant killed = Instant.now();
      assertThat(cluster.kill(leader)).isEqualTo(137);
      await(
          "the standby to lead",
          () -> cluster.leader().map(l -> !l.id().equals(leader.id())).orElse(false));
      Duration leaderChanged = Duration.between(killed, Instant.now());
      JobManagerProcess newLeader = cluster.leader().orElseThrow();
      await("the job to run under the new leader", () -> cluster.status(job) == JobStatus.RUNNING);
      cluster.awaitRunning(job, TIMEOUT);
      Duration running = Duration.between(killed, Instant.now());
      CheckpointInfo after = cluster.awaitCompletedCheckpointAfter(job, killed, TIMEOUT);
      LOG.info(
          "Leader {} SIGKILLed: {} leads after {} ms, job {} running after {} ms,"
              + " checkpoint {} after {} ms",
          leader.id(),
          newLeader.id(),
          leaderChanged.toMillis(),
          job,
          running.toMillis(),
          after.id(),
          Duration.between(killed, after.finishedAt()).toMillis());
      assertThat(cluster.restAddress()).isEqualTo(newLeader.restAddress());

      JobManagerProcess restarted = cluster.restartJobManager(leader.id());
      assertThat(restarted.alive()).isTrue();
      assertThat(restarted.leader()).isFalse();
      assertThat(restarted.pid()).isNotEqualTo(leader.pid());
      assertThat(cluster.leader().orElseThrow().id()).isEqualTo(newLeader.id());

      cluster.jobManagerProcesses().forEach(jm -> pids.add(jm.pid()));
      cluster.taskManagerProcesses().forEach(tm -> pids.add(tm.pid()));
    } finally {
      cluster.close();
    }
    assertThat(pids).hasSize(3).allMatch(pid -> ProcessHandle.of(pid).isEmpty());
    assertThat(pgrep(cluster.id())).isEmpty();
  }
}
