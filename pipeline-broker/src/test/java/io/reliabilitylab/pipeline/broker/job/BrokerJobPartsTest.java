package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The router and the deduplicator in a local Flink job, with their counters. */
class BrokerJobPartsTest {

  static ChangeEnvelope change(String op, long orderId, String file, long pos, int row) {
    OrderImage image = new OrderImage(orderId, "order-" + orderId, 1L, 2L, "paid", pos, 0, 0L);
    return new ChangeEnvelope(
        op,
        op.equals("u") || op.equals("d") ? image : null,
        op.equals("d") ? null : image,
        file,
        pos,
        row,
        null,
        0L);
  }

  @BeforeEach
  void resetCounters() {
    CountersReporter.reset();
  }

  @Test
  void routesQuarantinedRecordsAsideAndDropsReplays() throws Exception {
    ChangeEnvelope snapshot1 = change("r", 1, "mysql-bin.000009", 400, 0);
    ChangeEnvelope snapshot2 = change("r", 2, "mysql-bin.000009", 400, 0);
    ChangeEnvelope update1 = change("u", 1, "mysql-bin.000009", 900, 0);
    ChangeEnvelope sameEventNextRow = change("u", 1, "mysql-bin.000009", 900, 1);
    ChangeEnvelope afterRollover = change("u", 1, "mysql-bin.000010", 4, 0);
    ChangeEnvelope delete2 = change("d", 2, "mysql-bin.000010", 120, 0);
    DecodedRecord poison = DecodedRecord.quarantined(new byte[] {'{', '}'}, new byte[] {'k'}, 0, 9);
    List<DecodedRecord> input =
        List.of(
            DecodedRecord.change(snapshot1, 0, 0),
            DecodedRecord.change(snapshot2, 1, 0),
            DecodedRecord.change(update1, 0, 1),
            poison,
            DecodedRecord.change(sameEventNextRow, 0, 2),
            // a restarted connector sends the same changes again
            DecodedRecord.change(snapshot1, 0, 3),
            DecodedRecord.change(update1, 0, 4),
            DecodedRecord.change(sameEventNextRow, 0, 5),
            DecodedRecord.change(afterRollover, 0, 6),
            // an older binlog file after the rollover is a replay, whatever its offset
            DecodedRecord.change(change("u", 1, "mysql-bin.000009", 99_999, 0), 0, 7),
            DecodedRecord.change(delete2, 1, 8),
            DecodedRecord.change(delete2, 1, 9));

    Configuration configuration = new Configuration();
    CountersReporter.enable(configuration);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(1, configuration);
    DataStream<DecodedRecord> decoded =
        env.fromData(DecodedRecord.TYPE, input.toArray(DecodedRecord[]::new));
    SingleOutputStreamOperator<ChangeEnvelope> changes = QuarantineRouter.route(decoded);
    CloseableIterator<ChangeEnvelope> unique =
        ReplayDeduplicator.dedup(changes, Duration.ofMinutes(5)).collectAsync();
    CloseableIterator<DecodedRecord> quarantined =
        changes.getSideOutput(QuarantineRouter.DEAD_LETTERS).collectAsync();
    env.execute("router and deduplicator");
    List<ChangeEnvelope> forwarded = drain(unique);
    List<DecodedRecord> deadLetters = drain(quarantined);

    assertThat(forwarded)
        .containsExactly(snapshot1, snapshot2, update1, sameEventNextRow, afterRollover, delete2);
    assertThat(deadLetters).containsExactly(poison);
    assertThat(CountersReporter.sum(QuarantineRouter.QUARANTINED)).isEqualTo(1);
    assertThat(CountersReporter.sum(ReplayDeduplicator.FORWARDED)).isEqualTo(6);
    assertThat(CountersReporter.sum(ReplayDeduplicator.REPLAYS_DROPPED)).isEqualTo(5);
    assertThat(CountersReporter.sum(ReplayDeduplicator.REPLAYS_SEEN)).isEqualTo(5);
  }

  @Test
  void theBrokenDedupDropsOnlyARepeatOfTheLastPositionAndCountsEveryReplayItSees()
      throws Exception {
    ChangeEnvelope insert = change("c", 1, "mysql-bin.000009", 100, 0);
    ChangeEnvelope update = change("u", 1, "mysql-bin.000009", 200, 0);
    ChangeEnvelope later = change("u", 1, "mysql-bin.000009", 300, 0);
    // a redelivery of the key's three changes: only the repeat of the last one is dropped
    List<ChangeEnvelope> input = List.of(insert, update, later, insert, update, later);

    Configuration configuration = new Configuration();
    CountersReporter.enable(configuration);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(1, configuration);
    DataStream<ChangeEnvelope> changes =
        env.fromData(
            TypeInformation.of(ChangeEnvelope.class), input.toArray(ChangeEnvelope[]::new));
    CloseableIterator<ChangeEnvelope> passed =
        ReplayDeduplicator.dedupBroken(changes, Duration.ofMinutes(5)).collectAsync();
    env.execute("broken deduplicator");

    assertThat(drain(passed)).containsExactly(insert, update, later, insert, update);
    assertThat(CountersReporter.sum(ReplayDeduplicator.REPLAYS_SEEN)).isEqualTo(3);
    assertThat(CountersReporter.sum(ReplayDeduplicator.REPLAYS_DROPPED)).isEqualTo(1);
  }

  @Test
  void theBrokenRouterDropsAnUndecodableRecordWithoutADeadLetter() throws Exception {
    ChangeEnvelope before = change("c", 1, "mysql-bin.000009", 100, 0);
    ChangeEnvelope after = change("u", 1, "mysql-bin.000009", 300, 0);
    DecodedRecord poison = DecodedRecord.quarantined(new byte[] {'{', '}'}, new byte[] {'k'}, 0, 1);

    Configuration configuration = new Configuration();
    CountersReporter.enable(configuration);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(1, configuration);
    DataStream<DecodedRecord> decoded =
        env.fromData(
            DecodedRecord.TYPE,
            DecodedRecord.change(before, 0, 0),
            poison,
            DecodedRecord.change(after, 0, 2));
    SingleOutputStreamOperator<ChangeEnvelope> changes = QuarantineRouter.routeSkipping(decoded);
    CloseableIterator<ChangeEnvelope> forwarded = changes.collectAsync();
    CloseableIterator<DecodedRecord> quarantined =
        changes.getSideOutput(QuarantineRouter.DEAD_LETTERS).collectAsync();
    env.execute("broken router");

    assertThat(drain(forwarded)).containsExactly(before, after);
    assertThat(drain(quarantined)).isEmpty();
    assertThat(CountersReporter.sum(QuarantineRouter.SKIPPED)).isEqualTo(1);
    assertThat(CountersReporter.sum(QuarantineRouter.QUARANTINED)).isZero();
  }

  static <T> List<T> drain(CloseableIterator<T> iterator) throws Exception {
    List<T> items = new ArrayList<>();
    try {
      iterator.forEachRemaining(items::add);
    } finally {
      iterator.close();
    }
    return items;
  }

  @Test
  void theStateExpiresAfterItsTtlAndNeverReturnsExpiredPositions() {
    StateTtlConfig ttl =
        new ReplayDeduplicator(Duration.ofMinutes(7)).stateDescriptor().getTtlConfig();

    assertThat(ttl.isEnabled()).isTrue();
    assertThat(ttl.getTimeToLive()).isEqualTo(Duration.ofMinutes(7));
    assertThat(ttl.getUpdateType()).isEqualTo(StateTtlConfig.UpdateType.OnCreateAndWrite);
    assertThat(ttl.getStateVisibility())
        .isEqualTo(StateTtlConfig.StateVisibility.NeverReturnExpired);
    assertThat(new ReplayDeduplicator().stateDescriptor().getTtlConfig().getTimeToLive())
        .isEqualTo(Duration.ofHours(1));
  }
}
