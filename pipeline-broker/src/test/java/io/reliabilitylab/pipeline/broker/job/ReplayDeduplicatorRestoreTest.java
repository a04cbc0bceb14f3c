package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deduplicator's state survives a failover: the job fails once right after a completed
 * checkpoint and restores from it, and the replays that follow are still dropped.
 */
class ReplayDeduplicatorRestoreTest {

  static final int BATCH = 5;

  /** Batch 1 fills the state; batch 2 (after the failover) replays three and adds two. */
  static final List<ChangeEnvelope> CHANGES =
      List.of(
          BrokerJobPartsTest.change("c", 1, "mysql-bin.000001", 100, 0),
          BrokerJobPartsTest.change("u", 1, "mysql-bin.000001", 200, 0),
          BrokerJobPartsTest.change("c", 2, "mysql-bin.000001", 150, 0),
          BrokerJobPartsTest.change("u", 2, "mysql-bin.000001", 150, 1),
          BrokerJobPartsTest.change("c", 3, "mysql-bin.000002", 10, 0),
          BrokerJobPartsTest.change("u", 1, "mysql-bin.000001", 200, 0),
          BrokerJobPartsTest.change("u", 2, "mysql-bin.000001", 150, 1),
          BrokerJobPartsTest.change("u", 3, "mysql-bin.000001", 999, 0),
          BrokerJobPartsTest.change("u", 1, "mysql-bin.000002", 5, 0),
          BrokerJobPartsTest.change("c", 4, "mysql-bin.000001", 1, 0));

  static final AtomicBoolean FAILED = new AtomicBoolean();

  @BeforeEach
  void arm() {
    FAILED.set(false);
  }

  @Test
  void replaysAfterARestoreAreStillDropped() throws Exception {
    Configuration configuration = new Configuration();
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(1, configuration);
    env.enableCheckpointing(50, CheckpointingMode.EXACTLY_ONCE);

    // BATCH records per checkpoint: batch 2 starts only once a checkpoint holds batch 1's state
    DataGeneratorSource<ChangeEnvelope> source =
        new DataGeneratorSource<>(
            index -> CHANGES.get(index.intValue()),
            CHANGES.size(),
            RateLimiterStrategy.perCheckpoint(BATCH),
            TypeInformation.of(ChangeEnvelope.class));
    DataStream<ChangeEnvelope> changes =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "changes")
            .map(new FailOnceAtBatchTwo())
            .returns(TypeInformation.of(ChangeEnvelope.class));

    List<ChangeEnvelope> forwarded =
        BrokerJobPartsTest.drain(
            ReplayDeduplicator.dedup(changes, Duration.ofMinutes(5)).executeAndCollect());

    assertThat(FAILED).as("the job failed over once").isTrue();
    assertThat(forwarded)
        .containsExactly(
            CHANGES.get(0),
            CHANGES.get(1),
            CHANGES.get(2),
            CHANGES.get(3),
            CHANGES.get(4),
            CHANGES.get(8),
            CHANGES.get(9));
  }

  /** Fails the first attempt at batch 2's first record, after batch 1's checkpoint completed. */
  static final class FailOnceAtBatchTwo implements MapFunction<ChangeEnvelope, ChangeEnvelope> {
    private static final long serialVersionUID = 1L;

    @Override
    public ChangeEnvelope map(ChangeEnvelope change) {
      if (change.equals(CHANGES.get(BATCH)) && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure to force a restore");
      }
      return change;
    }
  }
}
