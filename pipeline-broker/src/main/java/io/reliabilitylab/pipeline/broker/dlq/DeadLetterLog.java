package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The dead-letter topic as the lab reads it: every dead letter with where it sits, as the SPI's
 * {@link DlqRecord} (payload as SHA-256 and length only), and the repair replays made from them.
 */
@API(status = INTERNAL)
public final class DeadLetterLog implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

  private final String bootstrapServers;
  private final String deadLetterTopic;
  private final String changeTopic;
  private final List<DeadLetterQueue.Repair> repairs = new CopyOnWriteArrayList<>();
  private @Nullable RepairPublisher publisher;

  /** A log of {@code deadLetterTopic}; repairs go to {@code changeTopic}. */
  public DeadLetterLog(String bootstrapServers, String deadLetterTopic, String changeTopic) {
    this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    this.deadLetterTopic = Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
    this.changeTopic = Objects.requireNonNull(changeTopic, "changeTopic");
  }

  /** Every dead letter in the topic now, in partition and offset order. */
  public List<DlqRecord> records() {
    List<DlqRecord> records = new ArrayList<>();
    for (Located located : readAll()) {
      records.add(
          located.deadLetter() == null
              ? unreadable(located)
              : DeadLetterCodec.toSpi(
                  located.deadLetter(), deadLetterTopic, located.partition(), located.offset()));
    }
    return records;
  }

  /**
   * Recovers the change a dead letter was meant to carry and republishes it to the change topic
   * with its primary key as the key; the outcome says what was done, or why nothing could be.
   */
  public synchronized DeadLetterQueue.Repair repair(DlqRecord record) {
    String original =
        record.originalTopic() + "/" + record.originalPartition() + "@" + record.originalOffset();
    DeadLetter deadLetter =
        readAll().stream()
            .filter(
                located ->
                    located.partition() == record.partition()
                        && located.offset() == record.offset())
            .map(Located::deadLetter)
            .filter(Objects::nonNull)
            .findFirst()
            .orElse(null);
    RepairOutcome recovered = deadLetter == null ? null : Repair.repair(deadLetter);
    DeadLetterQueue.Repair outcome;
    if (recovered == null) {
      outcome =
          notRepaired(
              original,
              "no readable dead letter at "
                  + deadLetterTopic
                  + "/"
                  + record.partition()
                  + "@"
                  + record.offset());
    } else if (recovered instanceof RepairOutcome.Repaired repaired) {
      if (publisher == null) {
        publisher = RepairPublisher.connect(bootstrapServers);
      }
      RepublishedRecord sent = publisher.publish(changeTopic, repaired.record());
      outcome =
          new DeadLetterQueue.Repair(
              original,
              true,
              "recovered a '"
                  + repaired.envelope().op()
                  + "' change after dropping "
                  + repaired.strippedPrefixBytes()
                  + " leading byte(s)"
                  + (repaired.keyVerified() ? ", key verified" : ", key taken from the change"),
              sent.topic(),
              sent.partition(),
              sent.offset(),
              sent.timestampMs(),
              "order_id=" + repaired.envelope().image().orderId(),
              repaired.envelope().eventId(),
              Instant.now());
    } else {
      outcome = notRepaired(original, ((RepairOutcome.Unrepairable) recovered).reason());
    }
    repairs.add(outcome);
    return outcome;
  }

  /** Every repair attempted, oldest first. */
  public List<DeadLetterQueue.Repair> repairs() {
    return List.copyOf(repairs);
  }

  private static DeadLetterQueue.Repair notRepaired(String original, String reason) {
    return new DeadLetterQueue.Repair(
        original, false, reason, "", -1, -1, -1, null, null, Instant.now());
  }

  private DlqRecord unreadable(Located located) {
    // A record that is not a dead letter of ours: counted, with no metadata, so integrity fails.
    return new DlqRecord(
        deadLetterTopic,
        located.partition(),
        located.offset(),
        "",
        -1,
        -1,
        -1,
        null,
        null,
        null,
        0,
        Payloads.sha256Hex(located.raw()),
        located.raw().length,
        false);
  }

  private record Located(int partition, long offset, byte[] raw, @Nullable DeadLetter deadLetter) {}

  private List<Located> readAll() {
    Map<String, Object> settings = new HashMap<>();
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READ_TIMEOUT.toMillis());
    List<Located> found = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      List<PartitionInfo> infos = consumer.partitionsFor(deadLetterTopic, READ_TIMEOUT);
      if (infos == null || infos.isEmpty()) {
        return found;
      }
      List<TopicPartition> partitions =
          infos.stream()
              .map(info -> new TopicPartition(deadLetterTopic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, READ_TIMEOUT);
      long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
      while (!reachedEnds(consumer, ends)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "Reading dead-letter topic " + deadLetterTopic + " did not reach its end in time");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
          byte[] raw = record.value() == null ? new byte[0] : record.value();
          DeadLetter deadLetter;
          try {
            deadLetter = DeadLetterCodec.decode(raw);
          } catch (InvalidDeadLetterException e) {
            deadLetter = null;
          }
          found.add(new Located(record.partition(), record.offset(), raw, deadLetter));
        }
      }
    }
    found.sort(
        (a, b) ->
            a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
    return found;
  }

  private static boolean reachedEnds(
      KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public synchronized void close() {
    if (publisher != null) {
      publisher.close();
      publisher = null;
    }
  }
}
