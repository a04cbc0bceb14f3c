package io.reliabilitylab.pipeline.broker.source;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.StopEngineException;
import io.reliabilitylab.spi.data.SourcePosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of a {@link DebeziumPublisher}: publishes each batch to the topic in order,
 * marks a record processed only once the broker acknowledged it, and accounts for what was
 * acknowledged. {@link #publish} runs on the engine's thread; the producer is created and closed by
 * the publisher's synchronized start and close.
 */
final class BatchPublisher {

  /** Logged under the publisher's name, where its other messages are. */
  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisher.class);

  private final String bootstrapServers;
  private final String capturedTopic;
  private final String topic;
  private final Map<String, Object> producerProperties;
  private final Unacknowledged unacknowledged;
  private final @Nullable PublishListener listener;
  private final PublishAccounting accounting;
  private final PoisonSlot poison;
  private final AtomicReference<ConnectorState> state;
  private final Runnable progressed;

  /** Held while a batch is published and marked, so that a stop can wait for it. */
  private final ReentrantLock batchLock = new ReentrantLock();

  private @Nullable KafkaProducer<byte[], byte[]> producer;

  /**
   * Shares the publisher's accounting, poison and state; {@code progressed} wakes those waiting for
   * the counters to move.
   */
  BatchPublisher(
      DebeziumPublisherBuilder builder,
      String capturedTopic,
      String topic,
      PublishAccounting accounting,
      PoisonSlot poison,
      AtomicReference<ConnectorState> state,
      Runnable progressed) {
    this.bootstrapServers = builder.bootstrapServers;
    this.capturedTopic = capturedTopic;
    this.topic = topic;
    this.producerProperties = builder.producerProperties();
    this.unacknowledged = builder.unacknowledged();
    this.listener = builder.listener;
    this.accounting = accounting;
    this.poison = poison;
    this.state = state;
    this.progressed = progressed;
  }

  /** The producer's settings and what becomes of a record not acknowledged, for a run record. */
  Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>();
    producerProperties.forEach((name, value) -> settings.put("producer." + name, describe(value)));
    settings.put("publisher.unacknowledged", unacknowledged.description());
    return settings;
  }

  void ensureProducer() {
    if (producer == null) {
      producer = new KafkaProducer<>(producerProperties);
    }
  }

  void closeProducer() {
    KafkaProducer<byte[], byte[]> current = producer;
    producer = null;
    if (current != null) {
      current.close(Duration.ofSeconds(10));
    }
  }

  /** Returns once the batch in flight, if any, was acknowledged and marked processed. */
  void awaitBatchInFlight() {
    batchLock.lock();
    batchLock.unlock();
  }

  /**
   * Publishes one batch in order and marks each record processed once acknowledged. Runs on the
   * engine's thread.
   */
  void publish(
      EngineRun owner,
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    batchLock.lock();
    try {
      if (owner.draining) {
        // Stopping: neither published nor marked, so read again after a restart.
        return;
      }
      long began = System.nanoTime();
      KafkaProducer<byte[], byte[]> sender = Objects.requireNonNull(producer);
      List<Outgoing> outgoing = new ArrayList<>(records.size());
      ArmedPoison fired = null;
      for (RecordChangeEvent<SourceRecord> event : records) {
        SourceRecord record = event.record();
        if (!capturedTopic.equals(record.topic())) {
          outgoing.add(new Outgoing(event, null, null, null, null));
          continue;
        }
        ChangeEncoder.Encoded encoded = owner.encoder.encode(record);
        SourcePosition position = encoded.position();
        if (position == null) {
          position = owner.lastChange != null ? owner.lastChange : fallbackPosition(record);
        } else {
          owner.lastChange = position;
        }
        byte[] value = encoded.value();
        ArmedPoison armed = value == null ? null : poison.armed();
        if (armed != null && armed.countDown()) {
          value = ChangeEncoder.corrupt(Objects.requireNonNull(value));
          fired = armed;
        }
        Future<RecordMetadata> ack =
            sender.send(new ProducerRecord<>(topic, null, encoded.key(), value));
        outgoing.add(new Outgoing(event, encoded, position, ack, fired != null ? value : null));
        if (fired != null) {
          break;
        }
      }
      long sent = System.nanoTime();
      try {
        for (Outgoing out : outgoing) {
          if (out.ack != null) {
            RecordMetadata metadata =
                unacknowledged == Unacknowledged.DROP ? ackOrDrop(out) : awaitAck(out);
            if (metadata != null) {
              account(out, metadata);
            }
          }
          committer.markProcessed(out.event);
        }
      } catch (RuntimeException | InterruptedException e) {
        if (fired != null) {
          poison.failed(fired, e);
        }
        throw e;
      } finally {
        progressed.run();
      }
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "Batch of {}: encoded and sent in {} µs, acknowledged and marked in {} µs",
            records.size(),
            TimeUnit.NANOSECONDS.toMicros(sent - began),
            TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent));
      }
      if (fired != null) {
        owner.draining = true;
        state.compareAndSet(ConnectorState.RUNNING, ConnectorState.STOPPING);
        fired.withheld = records.size() - outgoing.size();
        fired.owner = owner;
        committer.markBatchFinished();
        LOG.info(
            "Poison record published ({} record(s) of its batch withheld); stopping the engine",
            fired.withheld);
        throw new StopEngineException("A poison record was published: the engine stops");
      }
      committer.markBatchFinished();
    } finally {
      batchLock.unlock();
    }
  }

  /**
   * BROKEN ({@link DebeziumPublisherBuilder#dropUnacknowledged()}): logs a failed send, goes on.
   */
  private @Nullable RecordMetadata ackOrDrop(Outgoing out) throws InterruptedException {
    try {
      return awaitAck(out);
    } catch (IllegalStateException e) {
      LOG.warn(
          "BROKEN publisher: dropped the change at {} that the broker did not acknowledge ({});"
              + " marked processed all the same",
          out.position,
          e.getCause() == null ? e : e.getCause().getClass().getSimpleName());
      return null;
    }
  }

  private RecordMetadata awaitAck(Outgoing out) throws InterruptedException {
    try {
      return Objects.requireNonNull(out.ack).get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException(
          "The broker on "
              + bootstrapServers
              + " did not acknowledge a record for "
              + topic
              + ": "
              + cause.getMessage()
              + ". The engine stops; records not acknowledged are read again on restart",
          cause);
    }
  }

  private void account(Outgoing out, RecordMetadata metadata) {
    ChangeEncoder.Encoded encoded = Objects.requireNonNull(out.encoded);
    SourcePosition position = Objects.requireNonNull(out.position);
    long publishedAt = System.currentTimeMillis();
    accounting.acknowledged(encoded.tombstone(), position);
    byte[] poisonValue = out.poisonValue;
    if (poisonValue != null) {
      accounting.countCorrupted();
      ArmedPoison fired = Objects.requireNonNull(poison.armed());
      fired.published(metadata, encoded, position, poisonValue, publishedAt);
    }
    if (listener != null) {
      listener.published(
          new PublishedRecord(
              metadata.topic(),
              metadata.partition(),
              metadata.offset(),
              metadata.timestamp(),
              encoded.orderId(),
              encoded.op(),
              position,
              encoded.snapshot(),
              poisonValue != null,
              publishedAt));
    }
  }

  /** A tombstone with no delete before it in this run: its position from the record's offset. */
  private static SourcePosition fallbackPosition(SourceRecord record) {
    Map<String, ?> offset = record.sourceOffset();
    if (offset.get("lsn") instanceof Number lsn) {
      return SourcePosition.of("", lsn.longValue(), 0);
    }
    Object file = offset.get("file");
    Object pos = offset.get("pos");
    return SourcePosition.of(
        file == null ? "" : file.toString(), pos instanceof Number n ? n.longValue() : 0, 0);
  }

  private static String describe(Object value) {
    return value instanceof Class<?> type ? type.getName() : String.valueOf(value);
  }

  /** A record sent (or skipped: not a change of the captured table) with its acknowledgement. */
  private record Outgoing(
      RecordChangeEvent<SourceRecord> event,
      ChangeEncoder.@Nullable Encoded encoded,
      @Nullable SourcePosition position,
      @Nullable Future<RecordMetadata> ack,
      byte @Nullable [] poisonValue) {}
}
