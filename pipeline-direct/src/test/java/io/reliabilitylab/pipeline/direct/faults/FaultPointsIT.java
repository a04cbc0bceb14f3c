package io.reliabilitylab.pipeline.direct.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.cluster.FlinkJob;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.pipeline.flink.faults.FaultAction;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingFileSystem;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingSource;
import io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard;
import io.reliabilitylab.pipeline.flink.faults.OperatorFaultPoint;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault points in a real MiniCluster, on a small job (a number sequence through the source
 * wrapper and the operator point, checkpoints on {@code srlfault://}): each armed point fires once
 * and its fault id shows in the job's exception history or checkpoint statistics. The Iceberg
 * commit point is covered by {@link FaultInjectingCatalogLoaderTest} against a real catalog.
 */
class FaultPointsIT {

  private static final Logger LOG = LoggerFactory.getLogger(FaultPointsIT.class);
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path temp;

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void eachArmedPointFiresOnceWithItsFaultId() throws Exception {
    try (MiniClusterRunner cluster = MiniClusterRunner.start(MiniClusterSettings.defaults())) {
      JobID job =
          cluster.submit(
              new SequenceJob(temp.resolve("checkpoints"), Duration.ofSeconds(10), false), null);
      cluster.awaitRunning(job, DEADLINE);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);

      // A failed write of a checkpoint's file: a tolerated checkpoint failure, no restart.
      String storage = "srl-fault-1-checkpoint-failure";
      FaultSwitchboard.arm(
          FaultSwitchboard.CHECKPOINT_STORAGE, new FaultPosition.Now(), FaultAction.THROW, storage);
      Instant fired = await(() -> FaultSwitchboard.firedAt(storage).orElse(null));
      cluster.awaitCompletedCheckpointAfter(job, fired, DEADLINE);
      // Checkpoint statistics keep only the top message ("Failure to finalize checkpoint."),
      // not the cause carrying the fault id: the firing's checkpoint id ties them together.
      long checkpoint = FaultSwitchboard.firing(storage).orElseThrow().checkpointId();
      List<CheckpointInfo> failed =
          await(
              () -> {
                List<CheckpointInfo> found =
                    cluster.checkpoints(job).stream()
                        .filter(c -> "FAILED".equals(c.status()))
                        .toList();
                return found.isEmpty() ? null : found;
              });
      assertThat(failed).singleElement().satisfies(c -> assertThat(c.id()).isEqualTo(checkpoint));
      LOG.info("Failed checkpoint {}: {}", failed.get(0).id(), failed.get(0).failureReason());
      assertThat(cluster.restartCount(job)).isZero();

      // An operator that throws after K events: the tasks restart.
      String task = "srl-fault-2-task-exception";
      FaultSwitchboard.arm(
          FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(1_000), FaultAction.THROW, task);
      JobFailure taskFailure = await(() -> failureCarrying(cluster, job, task));
      assertThat(taskFailure.global()).isFalse();
      // A region failover leaves the job RUNNING: a completed checkpoint shows the tasks are back.
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);

      // The split enumerator throws: a global failover.
      String coordinator = "srl-fault-3-coordinator-failure";
      FaultSwitchboard.arm(
          FaultSwitchboard.SOURCE_ENUMERATOR,
          new FaultPosition.Now(),
          FaultAction.THROW,
          coordinator);
      JobFailure globalFailure = await(() -> failureCarrying(cluster, job, coordinator));
      assertThat(globalFailure.global()).isTrue();
      cluster.awaitRunning(job, DEADLINE);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);

      assertThat(cluster.restartCount(job)).isEqualTo(2);
      cluster.cancel(job);
    }
  }

  @Test
  void aStalledCheckpointFileMakesTheCheckpointExpire() throws Exception {
    try (MiniClusterRunner cluster = MiniClusterRunner.start(MiniClusterSettings.defaults())) {
      JobID job =
          cluster.submit(
              new SequenceJob(temp.resolve("checkpoints"), Duration.ofSeconds(1), true), null);
      cluster.awaitRunning(job, DEADLINE);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);

      String storage = "srl-fault-1-checkpoint-failure";
      FaultSwitchboard.arm(
          FaultSwitchboard.CHECKPOINT_STORAGE,
          new FaultPosition.Now(),
          FaultAction.STALL,
          storage,
          Duration.ofSeconds(30));
      await(() -> FaultSwitchboard.firedAt(storage).orElse(null));
      long checkpoint = FaultSwitchboard.firing(storage).orElseThrow().checkpointId();
      CheckpointInfo failed =
          await(
              () ->
                  cluster.checkpoints(job).stream()
                      .filter(c -> c.id() == checkpoint && "FAILED".equals(c.status()))
                      .findFirst()
                      .orElse(null));
      LOG.info("Stalled checkpoint {}: {}", failed.id(), failed.failureReason());
      FaultSwitchboard.disarm(storage);
      cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);
      assertThat(cluster.restartCount(job)).isZero();
      cluster.cancel(job);
    }
  }

  private static JobFailure failureCarrying(MiniClusterRunner cluster, JobID job, String id)
      throws Exception {
    return cluster.exceptionHistory(job).stream()
        .filter(f -> f.message().contains(id))
        .findFirst()
        .orElse(null);
  }

  private static <T> T await(Callable<T> probe) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      T value = probe.call();
      if (value != null) {
        return value;
      }
      Thread.sleep(50);
    }
    throw new TimeoutException("Condition not met within " + DEADLINE);
  }

  /** Numbers through the source wrapper and the operator point into a discarding sink. */
  private static final class SequenceJob implements FlinkJob {
    private final Path checkpoints;
    private final Duration checkpointTimeout;
    private final boolean stateInFiles;

    SequenceJob(Path checkpoints, Duration checkpointTimeout, boolean stateInFiles) {
      this.checkpoints = checkpoints;
      this.checkpointTimeout = checkpointTimeout;
      this.stateInFiles = stateInFiles;
    }

    @Override
    public String name() {
      return "fault points";
    }

    @Override
    public void build(StreamExecutionEnvironment env) {
      Configuration settings = new Configuration();
      settings.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      settings.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
      settings.set(
          RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
      settings.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      settings.set(
          CheckpointingOptions.CHECKPOINTS_DIRECTORY,
          FaultInjectingFileSystem.uriOf(checkpoints).toString());
      if (stateInFiles) {
        // Task state goes to files written by the tasks, not inlined into _metadata.
        settings.set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, MemorySize.ZERO);
      }
      env.configure(settings, FaultPointsIT.class.getClassLoader());
      env.setParallelism(2);
      env.enableCheckpointing(200);
      env.getCheckpointConfig().setTolerableCheckpointFailureNumber(1);
      env.getCheckpointConfig().setCheckpointTimeout(checkpointTimeout.toMillis());
      env.fromSource(
              FaultInjectingSource.wrap(new NumberSequenceSource(0, Long.MAX_VALUE)),
              WatermarkStrategy.noWatermarks(),
              "numbers")
          .uid("numbers")
          .map(new OperatorFaultPoint<Long>(n -> false))
          .returns(Types.LONG)
          .uid(OperatorFaultPoint.UID)
          .map(new Throttle())
          .sinkTo(new DiscardingSink<>());
    }
  }

  /** About 10,000 elements per second and subtask: enough to count, without burning a core. */
  private static final class Throttle implements MapFunction<Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long map(Long value) {
      LockSupport.parkNanos(100_000);
      return value;
    }
  }
}
