package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apiguardian.api.API;

/**
 * Topics and offsets on a Kafka cluster, through one admin client: creates topics, and reads per
 * partition the log-end offset and a consumer group's committed offset, which the offset ↔
 * checkpoint ↔ snapshot linkage record carries ({@link PartitionOffset}).
 *
 * <pre>{@code
 * try (KafkaTopics topics = KafkaTopics.connect(broker.bootstrapServers())) {
 *   topics.createTopic("lab.lab.orders", 3);
 *   List<PartitionOffset> offsets = topics.partitionOffsets("lab-job", "lab.lab.orders");
 *   long lag = offsets.stream().mapToLong(PartitionOffset::lag).sum();
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class KafkaTopics implements AutoCloseable {

  /** How long one admin call may take unless told otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private final Admin admin;
  private final String bootstrapServers;
  private final Duration timeout;

  private KafkaTopics(Admin admin, String bootstrapServers, Duration timeout) {
    this.admin = admin;
    this.bootstrapServers = bootstrapServers;
    this.timeout = timeout;
  }

  /** Connects to a cluster by its bootstrap servers, e.g. {@code 127.0.0.1:9092}. */
  public static KafkaTopics connect(String bootstrapServers) {
    return connect(bootstrapServers, DEFAULT_TIMEOUT);
  }

  /** Connects with a time limit for each admin call. */
  public static KafkaTopics connect(String bootstrapServers, Duration timeout) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(timeout, "timeout");
    if (bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers is empty: give host:port of a broker, e.g. 127.0.0.1:9092");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    Map<String, Object> properties = new HashMap<>();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 50);
    properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
    properties.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 100);
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(millis, 10_000));
    return new KafkaTopics(Admin.create(properties), bootstrapServers, timeout);
  }

  /**
   * Creates a topic with {@code partitions} partitions and replication factor 1 and waits until
   * every partition has a leader. A topic that exists with that many partitions is left as it is;
   * one with another count is an error.
   */
  public void createTopic(String topic, int partitions) {
    requireTopic(topic);
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "A topic needs at least 1 partition, got " + partitions + " for " + topic);
    }
    try {
      await(admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all());
    } catch (KafkaCallException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
    }
    int existing = awaitLeaders(topic);
    if (existing != partitions) {
      throw new IllegalStateException(
          "Topic "
              + topic
              + " exists with "
              + existing
              + " partitions, not "
              + partitions
              + ": delete it or use its partition count");
    }
  }

  /** Whether the topic exists. */
  public boolean exists(String topic) {
    requireTopic(topic);
    return await(admin.listTopics().names()).contains(topic);
  }

  /** How many partitions the topic has. */
  public int partitionCount(String topic) {
    return describe(topic).partitions().size();
  }

  /** Per partition, the log-end offset (the next offset to be written: the high watermark). */
  public Map<Integer, Long> logEndOffsets(String topic) {
    return offsets(topic, OffsetSpec.latest());
  }

  /** Per partition, the log-start offset (the earliest offset still in the log). */
  public Map<Integer, Long> logStartOffsets(String topic) {
    return offsets(topic, OffsetSpec.earliest());
  }

  /**
   * Per partition, the offset the consumer group committed for the topic (the next offset it will
   * read); partitions it never committed are absent.
   */
  public Map<Integer, Long> committedOffsets(String consumerGroup, String topic) {
    requireTopic(topic);
    Objects.requireNonNull(consumerGroup, "consumerGroup");
    List<TopicPartition> partitions = partitions(topic);
    Map<TopicPartition, OffsetAndMetadata> committed =
        await(
            admin
                .listConsumerGroupOffsets(
                    Map.of(
                        consumerGroup,
                        new ListConsumerGroupOffsetsSpec().topicPartitions(partitions)))
                .partitionsToOffsetAndMetadata(consumerGroup));
    Map<Integer, Long> offsets = new TreeMap<>();
    for (TopicPartition partition : partitions) {
      OffsetAndMetadata offset = committed.get(partition);
      if (offset != null) {
        offsets.put(partition.partition(), offset.offset());
      }
    }
    return offsets;
  }

  /**
   * Per partition, in partition order, the group's committed offset and the log-end offset, for a
   * linkage record. A partition the group never committed shows the log-start offset as committed,
   * so that its lag counts every record still in the log.
   */
  public List<PartitionOffset> partitionOffsets(String consumerGroup, String topic) {
    Map<Integer, Long> committed = committedOffsets(consumerGroup, topic);
    Map<Integer, Long> ends = logEndOffsets(topic);
    Map<Integer, Long> starts = committed.size() < ends.size() ? logStartOffsets(topic) : Map.of();
    List<PartitionOffset> offsets = new ArrayList<>();
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      int partition = end.getKey();
      long committedOffset = committed.getOrDefault(partition, starts.getOrDefault(partition, 0L));
      offsets.add(new PartitionOffset(partition, committedOffset, end.getValue()));
    }
    return offsets;
  }

  /** The bootstrap servers this client connects to. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The admin client underneath, for what this class does not cover; do not close it. */
  public Admin admin() {
    return admin;
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }

  private Map<Integer, Long> offsets(String topic, OffsetSpec spec) {
    List<TopicPartition> partitions = partitions(topic);
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (TopicPartition partition : partitions) {
      request.put(partition, spec);
    }
    Map<TopicPartition, ListOffsetsResultInfo> result = await(admin.listOffsets(request).all());
    Map<Integer, Long> offsets = new TreeMap<>();
    for (Map.Entry<TopicPartition, ListOffsetsResultInfo> entry : result.entrySet()) {
      offsets.put(entry.getKey().partition(), entry.getValue().offset());
    }
    return offsets;
  }

  private List<TopicPartition> partitions(String topic) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (TopicPartitionInfo info : describe(topic).partitions()) {
      partitions.add(new TopicPartition(topic, info.partition()));
    }
    return partitions;
  }

  private TopicDescription describe(String topic) {
    requireTopic(topic);
    try {
      return await(admin.describeTopics(List.of(topic)).topicNameValues().get(topic));
    } catch (KafkaCallException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new IllegalArgumentException(
            "Topic " + topic + " does not exist on " + bootstrapServers + ": create it first", e);
      }
      throw e;
    }
  }

  /** Waits until every partition of a new topic has a leader; returns the partition count. */
  private int awaitLeaders(String topic) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        TopicDescription description = describe(topic);
        if (description.partitions().stream().allMatch(p -> p.leader() != null)) {
          return description.partitions().size();
        }
      } catch (IllegalArgumentException e) {
        // Metadata may lag the creation by a moment.
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "Topic "
                + topic
                + " has partitions without a leader after "
                + timeout.toMillis()
                + " ms: is the broker on "
                + bootstrapServers
                + " healthy?");
      }
      try {
        TimeUnit.MILLISECONDS.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + topic, e);
      }
    }
  }

  private <T> T await(KafkaFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaCallException("Interrupted while talking to " + bootstrapServers, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new KafkaCallException(
          "Admin call to " + bootstrapServers + " failed: " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new KafkaCallException(
          "Admin call to "
              + bootstrapServers
              + " took longer than "
              + timeout.toMillis()
              + " ms: is the broker up?",
          e);
    }
  }

  private static void requireTopic(String topic) {
    Objects.requireNonNull(topic, "topic");
    if (topic.isBlank()) {
      throw new IllegalArgumentException("The topic name is empty");
    }
  }

  /** An admin call that failed or timed out; the cause is Kafka's own exception. */
  @API(status = EXPERIMENTAL)
  public static final class KafkaCallException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KafkaCallException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
