package io.reliabilitylab.pipeline.broker.job;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.broker.dlq.DeadLetter;
import io.reliabilitylab.pipeline.broker.dlq.DeadLetterCodec;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChangeRecordDeserializerTest {

  static final Instant NOW = Instant.parse("2026-11-30T01:00:00.123456Z");
  static final WireRecord WIRE = ChangeRecordCodec.encode(DecodedRecordTest.CHANGE);

  final RecordingMetricGroup metrics = new RecordingMetricGroup();
  final ChangeRecordDeserializer deserializer = new ChangeRecordDeserializer(() -> NOW);
  final List<DecodedRecord> out = new ArrayList<>();

  static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value) {
    return onTopic("lab.lab.orders", key, value);
  }

  @BeforeEach
  void open() {
    deserializer.open(deserializerContext());
  }

  private DeserializationSchema.InitializationContext deserializerContext() {
    return new DeserializationSchema.InitializationContext() {
      @Override
      public MetricGroup getMetricGroup() {
        return metrics;
      }

      @Override
      public UserCodeClassLoader getUserCodeClassLoader() {
        return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
      }
    };
  }

  @Test
  void aValidRecordBecomesAChange() {
    deserializer.deserialize(record(WIRE.key(), WIRE.value()), new ListCollector<>(out));

    assertThat(out).containsExactly(DecodedRecord.change(DecodedRecordTest.CHANGE, 2, 41L));
  }

  @Test
  void aTombstoneIsSkippedAndCounted() {
    deserializer.deserialize(record(WIRE.key(), null), new ListCollector<>(out));
    deserializer.deserialize(record(WIRE.key(), null), new ListCollector<>(out));

    assertThat(out).isEmpty();
    assertThat(metrics.count(ChangeRecordDeserializer.TOMBSTONES_SKIPPED)).isEqualTo(2);
  }

  @Test
  void aHeartbeatIsSkippedAndCountedWhateverItHolds() {
    ChangeRecordDeserializer skipping = ChangeRecordDeserializer.skipping("lab.lab.orders.hb");
    skipping.open(deserializerContext());
    ConsumerRecord<byte[], byte[]> change = record(WIRE.key(), WIRE.value());
    byte[] notAChange = "{\"heartbeat\":1}".getBytes(UTF_8);

    skipping.deserialize(onTopic("lab.lab.orders.hb", WIRE.key(), WIRE.value()), collector());
    skipping.deserialize(onTopic("lab.lab.orders.hb", null, notAChange), collector());
    skipping.deserialize(change, collector());

    // a heartbeat is neither a change nor a dead letter, even when its bytes look like either
    assertThat(out).containsExactly(DecodedRecord.change(DecodedRecordTest.CHANGE, 2, 41L));
    assertThat(metrics.count(ChangeRecordDeserializer.HEARTBEATS_SKIPPED)).isEqualTo(2);
  }

  @Test
  void withoutAHeartbeatTopicEveryTopicIsDecoded() {
    deserializer.deserialize(
        onTopic("lab.lab.orders.heartbeat", null, "{}".getBytes(UTF_8)), collector());

    assertThat(out).singleElement().satisfies(r -> assertThat(r.isQuarantined()).isTrue());
    assertThat(metrics.count(ChangeRecordDeserializer.HEARTBEATS_SKIPPED)).isZero();
  }

  private ListCollector<DecodedRecord> collector() {
    return new ListCollector<>(out);
  }

  private static ConsumerRecord<byte[], byte[]> onTopic(String topic, byte[] key, byte[] value) {
    return new ConsumerRecord<>(
        topic,
        2,
        41L,
        1787231907421L,
        TimestampType.CREATE_TIME,
        key == null ? -1 : key.length,
        value == null ? -1 : value.length,
        key,
        value,
        new RecordHeaders(),
        Optional.empty());
  }

  @Test
  void aPoisonRecordIsQuarantinedWithItsMetadataAndBytes() throws Exception {
    byte[] poison = new byte[WIRE.value().length + 2];
    poison[0] = (byte) 0xC3;
    poison[1] = 0x28;
    System.arraycopy(WIRE.value(), 0, poison, 2, WIRE.value().length);

    deserializer.deserialize(record(WIRE.key(), poison), new ListCollector<>(out));

    assertThat(out).hasSize(1);
    DecodedRecord quarantined = out.get(0);
    assertThat(quarantined.isQuarantined()).isTrue();
    assertThat(quarantined.sourcePartition()).isEqualTo(2);
    assertThat(quarantined.sourceOffset()).isEqualTo(41L);
    assertThat(quarantined.originalKey()).isEqualTo(WIRE.key());
    DeadLetter letter = DeadLetterCodec.decode(quarantined.deadLetter());
    assertThat(letter)
        .isEqualTo(
            DeadLetter.of(
                "lab.lab.orders",
                2,
                41L,
                1787231907421L,
                WIRE.key(),
                poison,
                "invalid-utf8",
                "value is not valid UTF-8: a malformed 1-byte sequence at byte 0 of "
                    + poison.length,
                NOW));
  }

  @Test
  void aRecordWithoutKeyIsQuarantinedToo() throws Exception {
    deserializer.deserialize(record(null, WIRE.value()), new ListCollector<>(out));

    DeadLetter letter = DeadLetterCodec.decode(out.get(0).deadLetter());
    assertThat(letter.errorType()).isEqualTo("missing-key");
    assertThat(letter.originalKey()).isNull();
    assertThat(letter.originalValue()).isEqualTo(WIRE.value());
  }

  @Test
  void worksWithoutOpenAndProducesItsPojoType() {
    ChangeRecordDeserializer unopened = new ChangeRecordDeserializer();
    unopened.deserialize(record("k".getBytes(UTF_8), null), new ListCollector<>(out));

    assertThat(out).isEmpty();
    assertThat(unopened.getProducedType()).isEqualTo(DecodedRecord.TYPE);
  }
}
