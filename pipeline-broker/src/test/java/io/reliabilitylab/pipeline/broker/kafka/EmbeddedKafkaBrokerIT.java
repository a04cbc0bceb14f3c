package io.reliabilitylab.pipeline.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class EmbeddedKafkaBrokerIT {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBrokerIT.class);
  private static final String TOPIC = "lab.lab.orders";

  @TempDir Path workDir;

  @Test
  void producesConsumesAndReportsCommittedAndLogEndOffsets() throws Exception {
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(workDir).start();
        KafkaTopics topics = broker.topics()) {
      broker.createTopic(TOPIC);
      broker.createTopic(TOPIC); // idempotent
      assertThat(topics.partitionCount(TOPIC)).isEqualTo(3);
      assertThatThrownBy(() -> topics.createTopic(TOPIC, 5))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("exists with 3 partitions");

      try (KafkaProducer<String, String> producer = producer(broker)) {
        for (int i = 0; i < 30; i++) {
          producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "value-" + i));
        }
        producer.flush();
      }
      Map<Integer, Long> ends = topics.logEndOffsets(TOPIC);
      assertThat(ends).containsOnlyKeys(0, 1, 2);
      assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(30);

      // A group that never committed: committed offsets absent, linkage shows the log start.
      assertThat(topics.committedOffsets("nobody", TOPIC)).isEmpty();
      List<PartitionOffset> unread = topics.partitionOffsets("nobody", TOPIC);
      assertThat(unread).extracting(PartitionOffset::committedOffset).containsOnly(0L);
      assertThat(unread.stream().mapToLong(PartitionOffset::lag).sum()).isEqualTo(30);

      try (KafkaConsumer<String, String> consumer = consumer(broker, "reader")) {
        consumer.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> read = pollUntil(consumer, 30, Duration.ofSeconds(20));
        assertThat(read).hasSize(30);
        consumer.commitSync();
      }
      assertThat(topics.committedOffsets("reader", TOPIC)).isEqualTo(ends);
      List<PartitionOffset> linkage = topics.partitionOffsets("reader", TOPIC);
      assertThat(linkage).extracting(PartitionOffset::partition).containsExactly(0, 1, 2);
      assertThat(linkage).allSatisfy(offset -> assertThat(offset.lag()).isZero());
    }
  }

  @Test
  void stopAndStartKeepAddressAndDataAndClientsReconnect() throws Exception {
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(workDir).start()) {
      String address = broker.bootstrapServers();
      String clusterId = broker.clusterId();
      broker.createTopic(TOPIC);
      try (KafkaProducer<String, String> producer = producer(broker);
          KafkaConsumer<String, String> consumer = consumer(broker, "survivor")) {
        for (int i = 0; i < 10; i++) {
          producer.send(new ProducerRecord<>(TOPIC, "before-" + i, "v")).get(10, TimeUnit.SECONDS);
        }
        consumer.subscribe(List.of(TOPIC));
        assertThat(pollUntil(consumer, 10, Duration.ofSeconds(20))).hasSize(10);
        consumer.commitSync();

        BrokerTransition stopped = broker.stop();
        assertThat(broker.isRunning()).isFalse();
        // Sent while the broker is down: send() itself may wait for metadata (it did, when the
        // stopping broker had dropped the topic from its answer), so from another thread; the
        // producer delivers it after the restart.
        CompletableFuture<RecordMetadata> whileDown =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return producer
                        .send(new ProducerRecord<>(TOPIC, "while-down", "v"))
                        .get(60, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    throw new CompletionException(e);
                  }
                });
        BrokerTransition started = broker.start();
        long restartedAt = System.nanoTime();
        whileDown.get(60, TimeUnit.SECONDS);
        long firstAckMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt);
        for (int i = 0; i < 9; i++) {
          producer.send(new ProducerRecord<>(TOPIC, "after-" + i, "v")).get(10, TimeUnit.SECONDS);
        }
        LOG.info(
            "Broker stop {} ms, start {} ms, first buffered record acknowledged {} ms after start",
            stopped.took().toMillis(),
            started.took().toMillis(),
            firstAckMs);

        assertThat(started.action()).isEqualTo("restart");
        assertThat(started.bootstrapServers()).isEqualTo(address);
        assertThat(started.clusterId()).isEqualTo(clusterId);
        assertThat(stopped.took()).isLessThan(Duration.ofSeconds(15));
        assertThat(started.took()).isLessThan(Duration.ofSeconds(15));

        // The same consumer reconnects and reads exactly the records after its commit.
        List<ConsumerRecord<String, String>> after =
            pollUntil(consumer, 10, Duration.ofSeconds(30));
        assertThat(after).extracting(ConsumerRecord::key).contains("while-down").hasSize(10);
        consumer.commitSync();
      }
      try (KafkaTopics topics = broker.topics()) {
        Map<Integer, Long> ends = topics.logEndOffsets(TOPIC);
        assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(20);
        assertThat(topics.committedOffsets("survivor", TOPIC)).isEqualTo(ends);
      }
      // Every record from before the stop is still there, read from the start by a new group.
      try (KafkaConsumer<String, String> fresh = consumer(broker, "fresh")) {
        fresh.subscribe(List.of(TOPIC));
        List<ConsumerRecord<String, String>> all = pollUntil(fresh, 20, Duration.ofSeconds(20));
        assertThat(all)
            .extracting(ConsumerRecord::key)
            .filteredOn(key -> key.startsWith("before-"))
            .hasSize(10);
      }
    }
  }

  @Test
  void startsOnGivenPortsAndRefusesMisuse() throws Exception {
    EmbeddedKafkaBroker first = EmbeddedKafkaBroker.builder(workDir.resolve("a")).start();
    int port = first.port();
    int controllerPort = first.controllerPort();
    first.close();
    first.close(); // twice is fine
    assertThatThrownBy(first::start).hasMessageContaining("closed");

    // A new broker on the old directory and ports finds the formatted data (same cluster id).
    try (EmbeddedKafkaBroker second =
        EmbeddedKafkaBroker.builder(workDir.resolve("a"))
            .brokerPort(port)
            .controllerPort(controllerPort)
            .start()) {
      assertThat(second.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
      assertThatThrownBy(second::start).hasMessageContaining("already running");
      second.stop();
      assertThatThrownBy(second::stop).hasMessageContaining("not running");
    }
  }

  private static KafkaProducer<String, String> producer(EmbeddedKafkaBroker broker) {
    Map<String, Object> properties = new HashMap<>(broker.clientProperties());
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return new KafkaProducer<>(properties);
  }

  private static KafkaConsumer<String, String> consumer(EmbeddedKafkaBroker broker, String group) {
    Map<String, Object> properties = new HashMap<>(broker.clientProperties());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    return new KafkaConsumer<>(properties);
  }

  private static List<ConsumerRecord<String, String>> pollUntil(
      KafkaConsumer<String, String> consumer, int count, Duration timeout) {
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (records.size() < count && System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(200)).forEach(records::add);
    }
    return records;
  }
}
