package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Republishes repaired changes to the main topic with an idempotent producer ({@code acks=all}),
 * one at a time and synchronously, so that the caller knows where each landed before the source
 * connector resumes.
 *
 * <pre>{@code
 * try (RepairPublisher publisher = RepairPublisher.connect(broker.bootstrapServers())) {
 *   if (Repair.repair(deadLetter) instanceof RepairOutcome.Repaired repaired) {
 *     RepublishedRecord where = publisher.publish("lab.lab.orders", repaired.record());
 *   }
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class RepairPublisher implements AutoCloseable {

  /** How long one publish waits for the broker's acknowledgement by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(RepairPublisher.class);

  private final Producer<byte[], byte[]> producer;
  private final Duration timeout;

  private RepairPublisher(Producer<byte[], byte[]> producer, Duration timeout) {
    this.producer = producer;
    this.timeout = timeout;
  }

  /** A publisher with its own producer on the given cluster. */
  public static RepairPublisher connect(String bootstrapServers) {
    return connect(bootstrapServers, Map.of());
  }

  /**
   * A publisher with its own producer on the given cluster; {@code overrides} adds or replaces
   * producer settings (security settings, say), except the serializers and the idempotence the
   * repair relies on.
   */
  public static RepairPublisher connect(String bootstrapServers, Map<String, ?> overrides) {
    return new RepairPublisher(
        new KafkaProducer<>(
            producerConfig(bootstrapServers, overrides),
            new ByteArraySerializer(),
            new ByteArraySerializer()),
        DEFAULT_TIMEOUT);
  }

  /** A publisher on a producer the caller made (and this publisher closes), e.g. a mock. */
  public static RepairPublisher using(Producer<byte[], byte[]> producer, Duration timeout) {
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    return new RepairPublisher(producer, timeout);
  }

  /** The producer settings {@link #connect(String, Map)} uses. */
  public static Map<String, Object> producerConfig(
      String bootstrapServers, Map<String, ?> overrides) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(overrides, "overrides");
    if (bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers is blank; give host:port of at least one broker");
    }
    Map<String, Object> config = new LinkedHashMap<>(overrides);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "reliability-lab-repair");
    // no duplicates from retries, and acknowledged by every in-sync replica
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return config;
  }

  /**
   * Publishes one record and waits for the broker's acknowledgement.
   *
   * @return where the record landed
   * @throws IllegalStateException if the broker refused it or did not answer in time
   */
  public RepublishedRecord publish(String topic, WireRecord record) {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(record, "record");
    byte[] value = record.value();
    RecordMetadata metadata;
    try {
      metadata =
          producer
              .send(new ProducerRecord<>(topic, record.key(), value))
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while republishing to topic " + topic, e);
    } catch (ExecutionException e) {
      throw refused(topic, e.getCause() == null ? e : e.getCause());
    } catch (KafkaException e) {
      throw refused(topic, e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "No acknowledgement for the repaired record on topic "
              + topic
              + " within "
              + timeout
              + "; is the broker reachable?",
          e);
    }
    RepublishedRecord published =
        new RepublishedRecord(
            metadata.topic(), metadata.partition(), metadata.offset(), metadata.timestamp());
    LOG.info(
        "Republished a repaired change to {}-{}@{} (value {})",
        published.topic(),
        published.partition(),
        published.offset(),
        Payloads.describe(value));
    return published;
  }

  private static IllegalStateException refused(String topic, Throwable cause) {
    return new IllegalStateException(
        "The broker refused the repaired record for topic "
            + topic
            + ": "
            + cause.getClass().getSimpleName(),
        cause);
  }

  @Override
  public void close() {
    producer.close(timeout);
  }
}
