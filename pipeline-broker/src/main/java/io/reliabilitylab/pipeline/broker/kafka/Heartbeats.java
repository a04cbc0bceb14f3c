package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Heartbeat records on the side topic the broker job subscribes to besides its change topic, so
 * that a completed checkpoint's offsets reach the consumer group in moments on an idle topic.
 *
 * <p>Flink's Kafka source commits a checkpoint's offsets as a task its split fetcher runs only
 * after the consumer's poll returns, and on an idle topic that poll waits its fixed 10 s (made
 * configurable only in connector releases for Flink 2.x, FLINK-40367). A record on any partition
 * the fetcher reads ends the poll. Debezium keeps a connector's offsets moving on an idle table the
 * same way, with its heartbeat topic. The job skips these records; they never reach the tables, the
 * dead-letter topic or the change topic the linkage is judged on.
 *
 * <pre>{@code
 * try (Heartbeats heartbeats = Heartbeats.to(bootstrapServers, jobConfig.heartbeatTopic())) {
 *   heartbeats.beat(); // one record on every partition of the heartbeat topic
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Heartbeats implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);
  private static final Duration SEND_BOUND = Duration.ofSeconds(2);

  private final String bootstrapServers;
  private final String topic;
  private final AtomicLong sent = new AtomicLong();
  private @Nullable KafkaProducer<byte[], byte[]> producer;

  private Heartbeats(String bootstrapServers, String topic) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
  }

  /** Heartbeats to {@code topic} on the given cluster; connects on the first beat. */
  public static Heartbeats to(String bootstrapServers, String topic) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(topic, "topic");
    return new Heartbeats(bootstrapServers, topic);
  }

  /**
   * Sends one record to every partition of the heartbeat topic, without waiting for the broker's
   * answer, and returns how many it sent; 0 when they could not be sent (a broker down, say), which
   * costs the caller only the wait the heartbeat was to save.
   */
  public synchronized int beat() {
    try {
      KafkaProducer<byte[], byte[]> sender = producer();
      byte[] value =
          ("{\"heartbeat\":" + System.currentTimeMillis() + "}").getBytes(StandardCharsets.UTF_8);
      int partitions = 0;
      for (PartitionInfo partition : sender.partitionsFor(topic)) {
        sender.send(new ProducerRecord<>(topic, partition.partition(), null, value));
        partitions++;
      }
      sent.addAndGet(partitions);
      return partitions;
    } catch (RuntimeException e) {
      LOG.debug("Heartbeat to {} on {} not sent: {}", topic, bootstrapServers, e.toString());
      return 0;
    }
  }

  /** How many heartbeat records were sent so far. */
  public long sent() {
    return sent.get();
  }

  /** The topic the heartbeats go to. */
  public String topic() {
    return topic;
  }

  private KafkaProducer<byte[], byte[]> producer() {
    KafkaProducer<byte[], byte[]> current = producer;
    if (current == null) {
      Map<String, Object> properties = new HashMap<>();
      properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
      properties.put(ProducerConfig.CLIENT_ID_CONFIG, "srl-heartbeats-" + topic);
      properties.put(ProducerConfig.ACKS_CONFIG, "1");
      properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
      properties.put(ProducerConfig.LINGER_MS_CONFIG, 0);
      int bound = (int) SEND_BOUND.toMillis();
      properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, bound);
      properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, bound);
      properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, bound);
      properties.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
      properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
      properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
      current = new KafkaProducer<>(properties);
      producer = current;
    }
    return current;
  }

  @Override
  public synchronized void close() {
    KafkaProducer<byte[], byte[]> current = producer;
    producer = null;
    if (current != null) {
      current.close(SEND_BOUND);
    }
  }
}
