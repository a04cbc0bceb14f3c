package io.reliabilitylab.pipeline.broker.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.pipeline.broker.kafka.EmbeddedKafkaBroker;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.OrdersTable;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class DebeziumPublisherIT {

  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisherIT.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir static Path brokerDir;
  @TempDir Path workDir;

  private static EmbeddedKafkaBroker broker;
  private static EmbeddedMariaDb source;
  private static int topics;

  private final List<PublishedRecord> acknowledged =
      Collections.synchronizedList(new ArrayList<>());
  private final Map<Long, Long> commitNanos = new ConcurrentHashMap<>();
  private final Map<Long, Long> ackNanos = new ConcurrentHashMap<>();

  @BeforeAll
  static void startBrokerAndSource() {
    broker = EmbeddedKafkaBroker.builder(brokerDir).start();
    source = EmbeddedMariaDb.shared();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @BeforeEach
  void emptySource() throws SQLException {
    source.resetDatabase();
    OrdersTable.in(source).reset();
  }

  @Test
  void publishesSnapshotAndChangesInOrderInTheWireFormat() throws Exception {
    insert(1, 101);
    insert(2, 102);
    insert(3, 103);
    String prefix = nextPrefix();
    try (DebeziumPublisher publisher = publisher(prefix).build()) {
      broker.createTopic(publisher.topic());
      assertThat(publisher.topic()).isEqualTo(prefix + "." + source.database() + ".orders");
      long began = System.nanoTime();
      PublisherTransition started = publisher.start();
      assertThat(started.state()).isEqualTo(ConnectorState.RUNNING);
      assertThat(publisher.status()).isEqualTo("RUNNING");
      assertThat(publisher.await(stats -> stats.published() >= 3, WAIT)).isTrue();
      long firstRecordMs =
          TimeUnit.NANOSECONDS.toMillis(
              ackNanos.values().stream().min(Long::compare).orElseThrow() - began);
      commitNanos.clear(); // the snapshot's rows were written before the start: no latency

      // Streaming: one change per transaction, then a transaction with a two-row insert and an
      // update of a row it inserted (rows of one binlog event, events of one transaction).
      insert(4, 104);
      update(4, 104, 204, "paid");
      delete(4, 204);
      try (Connection connection = source.connect()) {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
          statement.executeUpdate("INSERT INTO orders VALUES " + row(5, 105) + ", " + row(6, 106));
          statement.executeUpdate(
              "UPDATE orders SET event_id = 206, status = 'packed' WHERE order_id = 6");
        }
        connection.commit();
      }
      assertThat(publisher.await(stats -> stats.published() >= 3 + 4 + 3, WAIT)).isTrue();
      PublisherStats stats = publisher.stats();
      assertThat(stats.tombstones()).isEqualTo(1);
      assertThat(stats.changes()).isEqualTo(9);

      List<ConsumerRecord<byte[], byte[]>> records = readAll(publisher.topic(), 10);
      Map<Long, List<String>> opsByKey = new LinkedHashMap<>();
      for (ConsumerRecord<byte[], byte[]> record : records) {
        JsonNode key = JSON.readTree(record.key());
        assertThat(new String(record.key(), StandardCharsets.UTF_8))
            .isEqualTo("{\"order_id\":" + key.get("order_id").asLong() + "}");
        String op =
            record.value() == null ? "tombstone" : JSON.readTree(record.value()).get("op").asText();
        opsByKey.computeIfAbsent(key.get("order_id").asLong(), k -> new ArrayList<>()).add(op);
      }
      // Per key (one partition each) in source order, the tombstone right after the delete.
      assertThat(opsByKey)
          .containsEntry(1L, List.of("r"))
          .containsEntry(4L, List.of("c", "u", "d", "tombstone"))
          .containsEntry(5L, List.of("c"))
          .containsEntry(6L, List.of("c", "u"));

      JsonNode snapshotRead = valueOf(records, 1);
      assertThat(snapshotRead.get("before").isNull()).isTrue();
      assertThat(snapshotRead.get("source").get("snapshot").asText()).isNotEqualTo("false");
      JsonNode update = valueOf(records, 6, "u");
      assertThat(update.fieldNames())
          .toIterable()
          .contains("before", "after", "source", "op", "ts_ms");
      assertThat(update.get("before").get("event_id").asLong()).isEqualTo(106);
      JsonNode after = update.get("after");
      assertThat(after.fieldNames())
          .toIterable()
          .containsExactly(
              "order_id",
              "business_key",
              "customer_id",
              "amount_cents",
              "status",
              "event_id",
              "seed",
              "updated_at");
      assertThat(after.get("event_id").asLong()).isEqualTo(206);
      assertThat(after.get("status").asText()).isEqualTo("packed");
      // TIMESTAMP(3) arrives as Debezium's ZonedTimestamp: an ISO-8601 string in UTC.
      assertThat(after.get("updated_at").isTextual()).isTrue();
      assertThat(after.get("updated_at").asText()).isEqualTo("2026-01-01T00:00:06.000Z");
      JsonNode block = update.get("source");
      assertThat(block.get("file").asText()).startsWith("mysql-bin.");
      assertThat(block.get("pos").asLong()).isPositive();
      assertThat(block.has("row")).isTrue();
      assertThat(block.get("gtid").asText()).matches("\\d+-\\d+-\\d+");
      LOG.info(
          "Wire format of an update: key {} value fields {} source {}",
          "{\"order_id\":6}",
          iterable(update.fieldNames()),
          iterable(block.fieldNames()));
      LOG.info(
          "updated_at JSON: {} ({})",
          after.get("updated_at"),
          after.get("updated_at").getNodeType());

      // Source positions of streamed changes rise strictly in publishing order; the two rows of
      // the multi-row insert share the event position and differ in the row index.
      List<PublishedRecord> streamed =
          acknowledged.stream().filter(r -> !r.snapshot() && !r.tombstone()).toList();
      assertThat(streamed).hasSize(6);
      for (int i = 1; i < streamed.size(); i++) {
        assertThat(streamed.get(i).position()).isGreaterThan(streamed.get(i - 1).position());
      }
      PublishedRecord five = streamed.get(3);
      PublishedRecord six = streamed.get(4);
      assertThat(five.orderId()).isEqualTo(5);
      assertThat(six.position().offset()).isEqualTo(five.position().offset());
      assertThat(six.position().rowIndex()).isEqualTo(five.position().rowIndex() + 1);
      assertThat(six.position().gtid()).isEqualTo(five.position().gtid());
      PublishedRecord tombstone =
          acknowledged.stream().filter(PublishedRecord::tombstone).findFirst().orElseThrow();
      assertThat(tombstone.position()).isEqualTo(streamed.get(2).position());
      assertThat(publisher.lastPosition()).contains(streamed.get(5).position());

      // Insert -> acknowledged record latency, one insert at a time.
      for (int id = 20; id < 30; id++) {
        long expected = publisher.publishedCount() + 1;
        insert(id, 100 + id);
        assertThat(publisher.await(s -> s.published() >= expected, WAIT)).isTrue();
      }
      LOG.info(
          "Engine start {} ms, start to first snapshot record acknowledged {} ms; insert to"
              + " acknowledged record latency (ms): {}",
          started.took().toMillis(),
          firstRecordMs,
          latenciesMs());
      PublisherTransition stopped = publisher.stop();
      assertThat(stopped.state()).isEqualTo(ConnectorState.STOPPED);
      LOG.info("Engine stop {} ms", stopped.took().toMillis());
      assertThat(publisher.effectiveConfiguration())
          .containsEntry("debezium.offset.flush.interval.ms", "200")
          .containsEntry("debezium.database.password", "***")
          .containsEntry("producer.acks", "all");
    }
  }

  @Test
  void poisonCorruptsExactlyTheKthChangeStopsAndTheRestFollowsOnRestart() throws Exception {
    insert(1, 101);
    String prefix = nextPrefix();
    try (DebeziumPublisher publisher = publisher(prefix).build()) {
      broker.createTopic(publisher.topic());
      publisher.start();
      assertThat(publisher.await(stats -> stats.published() >= 1, WAIT)).isTrue();

      CompletableFuture<PoisonEvidence> poison = publisher.corruptNext(3);
      // Ten rows in one statement: one binlog event, one batch; the third is corrupted, the seven
      // after it are withheld.
      try (Connection connection = source.connect();
          Statement statement = connection.createStatement()) {
        StringBuilder sql = new StringBuilder("INSERT INTO orders VALUES ");
        for (int id = 10; id < 20; id++) {
          sql.append(id == 10 ? "" : ", ").append(row(id, 100 + id));
        }
        statement.executeUpdate(sql.toString());
      }
      PoisonEvidence evidence = poison.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      LOG.info("Poison evidence: {}", evidence);
      assertThat(evidence.orderId()).isEqualTo(12);
      assertThat(evidence.op()).isEqualTo(ChangeOp.CREATE);
      assertThat(evidence.k()).isEqualTo(3);
      assertThat(evidence.withheld()).isBetween(0, 7);
      assertThat(evidence.stateAfter()).isEqualTo(ConnectorState.STOPPED);
      assertThat(publisher.state()).isEqualTo(ConnectorState.STOPPED);
      assertThat(publisher.isRunning()).isFalse();
      assertThat(publisher.stats().published()).isEqualTo(1 + 3);
      assertThat(publisher.stats().corrupted()).isEqualTo(1);

      List<ConsumerRecord<byte[], byte[]>> before = readAll(publisher.topic(), 4);
      assertThat(before).hasSize(4);
      ConsumerRecord<byte[], byte[]> poisoned =
          before.stream()
              .filter(r -> r.offset() == evidence.offset() && r.partition() == evidence.partition())
              .findFirst()
              .orElseThrow();
      byte[] value = poisoned.value();
      assertThat(Arrays.copyOf(value, 2)).containsExactly(0xC3, 0x28);
      JsonNode original = JSON.readTree(Arrays.copyOfRange(value, 2, value.length));
      assertThat(original.get("after").get("order_id").asLong()).isEqualTo(12);
      assertThat(new String(poisoned.key(), StandardCharsets.UTF_8)).isEqualTo("{\"order_id\":12}");
      assertThat(evidence.valueLength()).isEqualTo(value.length);
      assertThat(evidence.valueSha256()).isEqualTo(sha256(value));
      assertThat(evidence.timestampMs()).isEqualTo(poisoned.timestamp());
      assertThat(evidence.topic()).isEqualTo(publisher.topic());
      assertThat(evidence.sourcePosition().rowIndex()).isEqualTo(2);
      assertThat(evidence.toString()).doesNotContain("business_key");

      // Restart: the seven withheld rows follow, nothing before the poison is published again.
      publisher.start();
      assertThat(publisher.await(stats -> stats.published() >= 1 + 10, WAIT)).isTrue();
      List<ConsumerRecord<byte[], byte[]>> all = readAll(publisher.topic(), 11);
      Map<Long, Long> perKey =
          all.stream()
              .collect(
                  Collectors.groupingBy(
                      r -> readKey(r.key()), LinkedHashMap::new, Collectors.counting()));
      assertThat(perKey).hasSize(11).allSatisfy((key, count) -> assertThat(count).isEqualTo(1));
      assertThat(publisher.stats().corrupted()).isEqualTo(1);
    }
  }

  @Test
  void restartFromAnOlderOffsetFilePublishesAgainAndCountsTheReplays() throws Exception {
    String prefix = nextPrefix();
    try (DebeziumPublisher publisher = publisher(prefix).build()) {
      broker.createTopic(publisher.topic());
      publisher.start();
      for (int id = 1; id <= 5; id++) {
        insert(id, 100 + id);
      }
      assertThat(publisher.await(stats -> stats.published() >= 5, WAIT)).isTrue();
      // A stop flushes the offsets: the copy then stands exactly after the fifth change.
      publisher.stop();
      publisher.start();
      OffsetSnapshot snapshot = publisher.snapshotOffsets();
      assertThat(snapshot.offsets()).hasSize(1);
      assertThat(snapshot.offsets().values().iterator().next()).contains("\"file\"", "\"pos\"");
      assertThat(snapshot.publishedAtCopy()).isEqualTo(5);

      for (int id = 6; id <= 10; id++) {
        insert(id, 100 + id);
      }
      assertThat(publisher.await(stats -> stats.published() >= 10, WAIT)).isTrue();
      SourcePosition highest = publisher.lastPosition().orElseThrow();

      RewindEvidence rewind = publisher.restartFrom(snapshot);
      assertThat(rewind.highWaterMark()).isEqualTo(highest);
      assertThat(rewind.publishedBefore()).isEqualTo(10);
      assertThat(rewind.stopped().state()).isEqualTo(ConnectorState.STOPPED);
      assertThat(rewind.started().state()).isEqualTo(ConnectorState.RUNNING);
      assertThat(publisher.await(stats -> stats.replayed() >= 5, WAIT)).isTrue();

      // A new change after the rewind is published once and is no replay.
      insert(11, 111);
      assertThat(publisher.await(stats -> stats.published() >= 16, WAIT)).isTrue();
      assertThat(publisher.replayedCount()).isEqualTo(5);
      List<ConsumerRecord<byte[], byte[]>> all = readAll(publisher.topic(), 16);
      Map<Long, Long> perKey =
          all.stream().collect(Collectors.groupingBy(r -> readKey(r.key()), Collectors.counting()));
      for (long id = 1; id <= 11; id++) {
        assertThat(perKey.get(id))
            .as("copies of order %s", id)
            .isEqualTo(id >= 6 && id <= 10 ? 2 : 1);
      }
    }
  }

  @Test
  void keepsPublishingAcrossABrokerRestart() throws Exception {
    String prefix = nextPrefix();
    try (DebeziumPublisher publisher = publisher(prefix).build()) {
      broker.createTopic(publisher.topic());
      publisher.start();
      insert(1, 101);
      assertThat(publisher.await(stats -> stats.published() >= 1, WAIT)).isTrue();
      broker.stop();
      try {
        insert(2, 102);
        insert(3, 103);
      } finally {
        broker.start();
      }
      assertThat(publisher.await(stats -> stats.published() >= 3, WAIT)).isTrue();
      assertThat(publisher.state()).isEqualTo(ConnectorState.RUNNING);
      assertThat(readAll(publisher.topic(), 3)).hasSize(3);
    }
  }

  @Test
  void publishesABulkLoadAtSpeed() throws Exception {
    String prefix = nextPrefix();
    int rows = 20_000;
    try (DebeziumPublisher publisher =
        DebeziumPublisher.builder(source, broker.bootstrapServers(), workDir)
            .topicPrefix(prefix)
            .maxBatchSize(4096)
            .build()) {
      broker.createTopic(publisher.topic());
      publisher.start();
      long began = System.nanoTime();
      try (Connection connection = source.connect();
          Statement statement = connection.createStatement()) {
        for (int first = 1; first <= rows; first += 500) {
          StringBuilder sql = new StringBuilder("INSERT INTO orders VALUES ");
          for (int id = first; id < first + 500; id++) {
            sql.append(id == first ? "" : ", ").append(row(id, 1_000_000 + id));
          }
          statement.executeUpdate(sql.toString());
        }
      }
      long written = System.nanoTime();
      assertThat(publisher.await(stats -> stats.published() >= rows, Duration.ofSeconds(120)))
          .isTrue();
      long done = System.nanoTime();
      LOG.info(
          "Bulk load: {} rows written in {} ms, all published {} ms after the first insert"
              + " ({} events/s end to end)",
          rows,
          TimeUnit.NANOSECONDS.toMillis(written - began),
          TimeUnit.NANOSECONDS.toMillis(done - began),
          rows * 1_000_000_000L / (done - began));
      assertThat(publisher.stats().changes()).isEqualTo(rows);
    }
  }

  private DebeziumPublisherBuilder publisher(String prefix) {
    return DebeziumPublisher.builder(source, broker.bootstrapServers(), workDir)
        .topicPrefix(prefix)
        .listener(
            record -> {
              acknowledged.add(record);
              if (!record.tombstone()) {
                ackNanos.putIfAbsent(record.orderId(), System.nanoTime());
              }
            });
  }

  private static String nextPrefix() {
    return "t" + (++topics);
  }

  private void insert(long orderId, long eventId) throws SQLException {
    try (Connection connection = source.connect();
        PreparedStatement statement =
            connection.prepareStatement(
                "INSERT INTO orders VALUES (?, ?, ?, ?, 'created', ?, 7, ?)")) {
      statement.setLong(1, orderId);
      statement.setString(2, "order-" + orderId);
      statement.setLong(3, orderId % 5);
      statement.setLong(4, 1000 * orderId);
      statement.setLong(5, eventId);
      statement.setTimestamp(
          6, Timestamp.from(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(orderId)));
      statement.executeUpdate();
      commitNanos.putIfAbsent(orderId, System.nanoTime());
    }
  }

  private static String row(long orderId, long eventId) {
    return "("
        + orderId
        + ", 'order-"
        + orderId
        + "', "
        + (orderId % 5)
        + ", "
        + (1000 * orderId)
        + ", 'created', "
        + eventId
        + ", 7, '2026-01-01 00:00:"
        + String.format("%02d", orderId % 60)
        + ".000')";
  }

  private void update(long orderId, long eventId, long newEventId, String status)
      throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "UPDATE orders SET event_id = "
              + newEventId
              + ", status = '"
              + status
              + "' WHERE order_id = "
              + orderId
              + " AND event_id = "
              + eventId);
    }
  }

  private void delete(long orderId, long eventId) throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "DELETE FROM orders WHERE order_id = " + orderId + " AND event_id = " + eventId);
    }
  }

  private List<Long> latenciesMs() {
    List<Long> latencies = new ArrayList<>();
    commitNanos.forEach(
        (id, committed) -> {
          Long acked = ackNanos.get(id);
          if (acked != null && acked > committed) {
            latencies.add(TimeUnit.NANOSECONDS.toMillis(acked - committed));
          }
        });
    latencies.sort(Long::compare);
    return latencies;
  }

  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected) {
    Map<String, Object> properties = new HashMap<>(broker.clientProperties());
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (records.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      // Anything beyond the expected count would be a duplicate: read a little longer.
      consumer.poll(Duration.ofMillis(500)).forEach(records::add);
    }
    return records;
  }

  private static JsonNode valueOf(List<ConsumerRecord<byte[], byte[]>> records, long orderId)
      throws Exception {
    return valueOf(records, orderId, null);
  }

  private static JsonNode valueOf(
      List<ConsumerRecord<byte[], byte[]>> records, long orderId, String op) throws Exception {
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() != null && readKey(record.key()) == orderId) {
        JsonNode value = JSON.readTree(record.value());
        if (op == null || op.equals(value.get("op").asText())) {
          return value;
        }
      }
    }
    throw new AssertionError("No record for order " + orderId + " op " + op);
  }

  private static long readKey(byte[] key) {
    try {
      return JSON.readTree(key).get("order_id").asLong();
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  private static List<String> iterable(java.util.Iterator<String> names) {
    List<String> list = new ArrayList<>();
    names.forEachRemaining(list::add);
    return list;
  }
}
