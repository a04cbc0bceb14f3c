package io.reliabilitylab.pipeline.broker.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class RepairPublisherTest {

  static final WireRecord WIRE = ChangeRecordCodec.encode(RepairTest.CHANGE);

  @Test
  void theProducerIsIdempotentAndWaitsForAllReplicas() {
    Map<String, Object> config =
        RepairPublisher.producerConfig(
            "127.0.0.1:9092", Map.of("enable.idempotence", "false", "acks", "0", "linger.ms", "5"));

    assertThat(config)
        .containsEntry("bootstrap.servers", "127.0.0.1:9092")
        .containsEntry("enable.idempotence", true)
        .containsEntry("acks", "all")
        .containsEntry("linger.ms", "5")
        .containsEntry("client.id", "reliability-lab-repair")
        .containsEntry("key.serializer", ByteArraySerializer.class.getName());
    assertThatThrownBy(() -> RepairPublisher.producerConfig(" ", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bootstrapServers is blank");
  }

  @Test
  void publishesKeyAndValueAndSaysWhereTheyLanded() {
    MockProducer<byte[], byte[]> producer =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    try (RepairPublisher publisher = RepairPublisher.using(producer, Duration.ofSeconds(5))) {
      RepublishedRecord first = publisher.publish("lab.lab.orders", WIRE);
      RepublishedRecord second = publisher.publish("lab.lab.orders", WIRE);

      assertThat(first.topic()).isEqualTo("lab.lab.orders");
      assertThat(second.offset()).isEqualTo(first.offset() + 1);
    }
    assertThat(producer.history()).hasSize(2);
    ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
    assertThat(sent.key()).isEqualTo(WIRE.key());
    assertThat(sent.value()).isEqualTo(WIRE.value());
    assertThat(producer.closed()).isTrue();
  }

  @Test
  void aRefusalOrASilentBrokerIsAClearError() {
    MockProducer<byte[], byte[]> refusing =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    refusing.sendException = new RecordTooLargeException("too large");
    try (RepairPublisher publisher = RepairPublisher.using(refusing, Duration.ofSeconds(5))) {
      assertThatThrownBy(() -> publisher.publish("t", WIRE))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "The broker refused the repaired record for topic t: RecordTooLargeException");
    }

    MockProducer<byte[], byte[]> silent =
        new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
    try (RepairPublisher publisher = RepairPublisher.using(silent, Duration.ofMillis(50))) {
      assertThatThrownBy(() -> publisher.publish("t", WIRE))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("No acknowledgement for the repaired record on topic t within");
    }
  }
}
