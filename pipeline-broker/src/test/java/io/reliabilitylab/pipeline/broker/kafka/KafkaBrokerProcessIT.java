package io.reliabilitylab.pipeline.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker as its own JVM: a SIGKILL ends the process with status 137, a start on the same port
 * and log directory recovers the log without a clean-shutdown marker and keeps the acknowledged
 * records; a clean stop leaves the marker. No broker process outlives the test.
 */
class KafkaBrokerProcessIT {

  private static final String TOPIC = "lab.lab.orders";

  @TempDir Path workDir;

  @Test
  void aKilledBrokerRecoversUncleanlyOnTheSamePortAndKeepsAcknowledgedRecords() throws Exception {
    List<Long> pids = new ArrayList<>();
    try (KafkaBrokerProcess broker = KafkaBrokerProcess.builder(workDir).build()) {
      assertThatThrownBy(broker::pid).hasMessageContaining("never started");
      BrokerTransition first = broker.start();
      pids.add(broker.pid());
      assertThat(pids.get(0)).isNotEqualTo(ProcessHandle.current().pid());
      String address = broker.bootstrapServers();
      assertThat(first.action()).isEqualTo("start");
      assertThat(Files.readString(workDir.resolve(KafkaBrokerProcess.ROLE + ".pid")).strip())
          .isEqualTo(Long.toString(pids.get(0)));
      try (KafkaTopics topics = broker.topics()) {
        topics.createTopic(TOPIC, 3);
      }
      send(broker, 20);

      BrokerKill kill = broker.kill();
      assertThat(kill.pid()).isEqualTo(pids.get(0));
      assertThat(kill.exitStatus()).isEqualTo(BrokerKill.SIGKILL_STATUS);
      assertThat(ProcessHandle.of(kill.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(broker.isRunning()).isFalse();
      assertThatThrownBy(broker::kill).hasMessageContaining("not running");

      BrokerTransition restarted = broker.start();
      pids.add(broker.pid());
      assertThat(restarted.action()).isEqualTo("restart");
      assertThat(broker.bootstrapServers()).isEqualTo(address);
      assertThat(restarted.clusterId()).isEqualTo(first.clusterId());
      assertThat(pids.get(1)).isNotEqualTo(pids.get(0));
      assertThat(broker.recoveryLog())
          .as("what the restarted broker logged about its log directory")
          .anyMatch(line -> line.contains("no clean shutdown file"));
      try (KafkaTopics topics = broker.topics()) {
        Map<Integer, Long> ends = topics.logEndOffsets(TOPIC);
        assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(20);
      }

      broker.stop();
      broker.start();
      pids.add(broker.pid());
      assertThat(broker.recoveryLog())
          .as("after a clean stop")
          .anyMatch(line -> line.contains("since clean shutdown file was found"))
          .noneMatch(line -> line.contains("no clean shutdown file"));
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("broker process %d after close", pid)
          .isFalse();
    }
  }

  private static void send(KafkaBrokerProcess broker, int count) throws Exception {
    Map<String, Object> properties =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "v")).get(10, TimeUnit.SECONDS);
      }
    }
  }
}
