package io.reliabilitylab.pipeline.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared broker keeps its topics and address from one lease to the next, is started again when a
 * scenario left it stopped, and is not handed to two leases at once.
 */
class SharedKafkaBrokersIT {

  @TempDir Path directory;

  @BeforeAll
  @AfterAll
  static void stopBrokers() {
    SharedKafkaBrokers.closeAll();
  }

  /**
   * A leased broker outlives its lease: stopped before each test's temporary directory is deleted
   * under it (a broker still writing its logs failed that deletion once in CI, and the next test
   * then met the broken pool).
   */
  @AfterEach
  void stopTheTestsBrokers() {
    SharedKafkaBrokers.closeAll();
  }

  @Test
  void oneBrokerServesLeaseAfterLeaseAndComesBackAfterAStopThatWasNotUndone() {
    String address;
    try (LabKafkaBroker first = SharedKafkaBrokers.acquire(directory.resolve("first"));
        KafkaTopics topics = first.topics()) {
      address = first.bootstrapServers();
      topics.createTopic("lab.lab.orders.first", 3);
      try (LabKafkaBroker concurrent = SharedKafkaBrokers.acquire(directory.resolve("second"))) {
        assertThat(concurrent.bootstrapServers()).isNotEqualTo(address);
      }
      first.stop(); // a broker restart cut short: the scenario ends with the broker down
    }

    try (LabKafkaBroker again = SharedKafkaBrokers.acquire(directory.resolve("third"));
        KafkaTopics topics = again.topics()) {
      assertThat(again.bootstrapServers()).isEqualTo(address);
      assertThat(again.logDirectory()).startsWith(directory.resolve("first"));
      assertThat(topics.exists("lab.lab.orders.first")).isTrue();
      assertThat(again.describe()).contains("shared");
    }
  }

  @Test
  void aBrokerWhoseDirectoryWasDeletedIsReplaced() throws Exception {
    Path gone = directory.resolve("gone");
    String address;
    try (LabKafkaBroker first = SharedKafkaBrokers.acquire(gone)) {
      address = first.bootstrapServers();
    }
    try (Stream<Path> files = Files.walk(gone)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }

    try (LabKafkaBroker next = SharedKafkaBrokers.acquire(directory.resolve("next"));
        KafkaTopics topics = next.topics()) {
      assertThat(next.logDirectory()).startsWith(directory.resolve("next"));
      assertThat(next.bootstrapServers()).isNotEqualTo(address);
      topics.createTopic("lab.lab.orders.next", 1);
      assertThat(topics.exists("lab.lab.orders.next")).isTrue();
    }
  }
}
