package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class DeadLetterSinkTest {

  @Test
  void namesTheDeadLetterTopic() {
    assertThat(DeadLetterSink.topicFor("lab.lab.orders")).isEqualTo("lab.lab.orders.dlq");
  }

  @Test
  void writesTheDeadLetterKeyedByTheOriginalKey() {
    KafkaRecordSerializationSchema<DecodedRecord> serializer =
        DeadLetterSink.serializer("lab.lab.orders.dlq");
    byte[] json = {'{', '}'};
    byte[] key = {'k'};

    ProducerRecord<byte[], byte[]> record =
        serializer.serialize(DecodedRecord.quarantined(json, key, 1, 2L), null, 5L);
    ProducerRecord<byte[], byte[]> keyless =
        serializer.serialize(DecodedRecord.quarantined(json, null, 1, 2L), null, null);

    assertThat(record.topic()).isEqualTo("lab.lab.orders.dlq");
    assertThat(record.key()).isEqualTo(key);
    assertThat(record.value()).isEqualTo(json);
    assertThat(record.partition()).isNull();
    assertThat(keyless.key()).isNull();
  }

  @Test
  void refusesAChangeAndBlankSettings() {
    KafkaRecordSerializationSchema<DecodedRecord> serializer = DeadLetterSink.serializer("d");

    assertThatThrownBy(
            () ->
                serializer.serialize(
                    DecodedRecord.change(DecodedRecordTest.CHANGE, 0, 3L), null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Only quarantined records belong in the dead-letter topic d");
    assertThatThrownBy(() -> DeadLetterSink.create(" ", "d"))
        .hasMessageContaining("bootstrapServers is blank");
    assertThatThrownBy(() -> DeadLetterSink.serializer(""))
        .hasMessageContaining("dlqTopic is blank");
  }

  @Test
  void buildsAnAtLeastOnceSinkWithoutConnecting() {
    Properties overrides = new Properties();
    overrides.setProperty("linger.ms", "5");

    assertThat(DeadLetterSink.create("127.0.0.1:1", "d", overrides)).isNotNull();
  }
}
