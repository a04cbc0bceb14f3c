package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka sink of quarantined records: each dead letter's JSON goes to the dead-letter topic
 * ({@code <topic>.dlq}), keyed by the original record's key. At least once: Flink's exactly-once
 * {@code KafkaSink} fails on kafka-clients 4.x ({@code NoSuchMethodError
 * TransactionalRequestResult.await()}), which the Debezium engine needs; a dead letter written
 * twice is one original record quarantined twice, which the {@code dlq-integrity} check tells by
 * the original topic, partition and offset.
 *
 * <pre>{@code
 * changes.getSideOutput(QuarantineRouter.DEAD_LETTERS)
 *     .sinkTo(DeadLetterSink.create(bootstrapServers, DeadLetterSink.topicFor("lab.lab.orders")))
 *     .uid(DeadLetterSink.UID)
 *     .name("dead letters");
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DeadLetterSink {

  /** The suffix of a dead-letter topic's name. */
  public static final String TOPIC_SUFFIX = ".dlq";

  /** The sink's uid. */
  public static final String UID = "dead-letter-sink";

  private DeadLetterSink() {}

  /** The dead-letter topic of a change topic: {@code <topic>.dlq}. */
  public static String topicFor(String topic) {
    Objects.requireNonNull(topic, "topic");
    return topic + TOPIC_SUFFIX;
  }

  /** A sink to {@code dlqTopic} on the given cluster. */
  public static KafkaSink<DecodedRecord> create(String bootstrapServers, String dlqTopic) {
    return create(bootstrapServers, dlqTopic, new Properties());
  }

  /**
   * A sink to {@code dlqTopic} on the given cluster; {@code producerProperties} adds or replaces
   * producer settings (security settings, say). {@code acks=all} unless given.
   */
  public static KafkaSink<DecodedRecord> create(
      String bootstrapServers, String dlqTopic, Properties producerProperties) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(producerProperties, "producerProperties");
    if (bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers is blank; give host:port of at least one broker");
    }
    Properties properties = new Properties();
    properties.setProperty(ProducerConfig.ACKS_CONFIG, "all");
    properties.putAll(producerProperties);
    return KafkaSink.<DecodedRecord>builder()
        .setBootstrapServers(bootstrapServers)
        .setKafkaProducerConfig(properties)
        .setRecordSerializer(serializer(dlqTopic))
        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
        .build();
  }

  /** The serializer the sink uses: key = original key, value = the dead letter JSON. */
  public static KafkaRecordSerializationSchema<DecodedRecord> serializer(String dlqTopic) {
    Objects.requireNonNull(dlqTopic, "dlqTopic");
    if (dlqTopic.isBlank()) {
      throw new IllegalArgumentException("dlqTopic is blank");
    }
    return new DeadLetterSerializer(dlqTopic);
  }

  private static final class DeadLetterSerializer
      implements KafkaRecordSerializationSchema<DecodedRecord> {
    private static final long serialVersionUID = 1L;

    private final String topic;

    DeadLetterSerializer(String topic) {
      this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
        DecodedRecord record, KafkaSinkContext context, @Nullable Long timestamp) {
      byte[] deadLetter = record.deadLetter();
      if (deadLetter == null) {
        throw new IllegalArgumentException(
            "Only quarantined records belong in the dead-letter topic "
                + topic
                + ", got a change from partition "
                + record.sourcePartition()
                + " offset "
                + record.sourceOffset()
                + "; route with QuarantineRouter.DEAD_LETTERS");
      }
      return new ProducerRecord<>(topic, record.originalKey(), deadLetter);
    }
  }
}
