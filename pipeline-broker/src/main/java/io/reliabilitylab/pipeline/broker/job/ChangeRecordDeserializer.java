package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.broker.dlq.DeadLetter;
import io.reliabilitylab.pipeline.broker.dlq.DeadLetterCodec;
import io.reliabilitylab.pipeline.broker.dlq.Payloads;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecord;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.InvalidChangeRecordException;
import java.time.Instant;
import java.util.Objects;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the change topic's Kafka records into {@link DecodedRecord}s for a {@code KafkaSource}, and
 * never fails on bad input, so that a poison record cannot fail the job: a valid record becomes a
 * change; a tombstone is skipped and counted ({@value #TOMBSTONES_SKIPPED}), and so is a record of
 * the heartbeat topic a deserializer may be told to skip ({@value #HEARTBEATS_SKIPPED}); any other
 * record is quarantined as a {@link DeadLetter} built from the record's topic, partition, offset,
 * timestamp, key and value and the decoder's error. Logs show a payload's SHA-256 and length only.
 *
 * <pre>{@code
 * KafkaSource<DecodedRecord> source = KafkaSource.<DecodedRecord>builder()
 *     .setBootstrapServers(bootstrapServers)
 *     .setTopics(topic)
 *     .setDeserializer(new ChangeRecordDeserializer())
 *     .build();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ChangeRecordDeserializer
    implements KafkaRecordDeserializationSchema<DecodedRecord> {

  /** The counter of tombstones skipped, in the source's metric group. */
  public static final String TOMBSTONES_SKIPPED = "tombstonesSkipped";

  /** The counter of heartbeat records skipped, in the source's metric group. */
  public static final String HEARTBEATS_SKIPPED = "heartbeatsSkipped";

  /** The error type of a failure the codec did not foresee (a bug, but not the job's end). */
  public static final String UNEXPECTED_ERROR = "unexpected-error";

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ChangeRecordDeserializer.class);

  private final SerializableSupplier<Instant> clock;
  private final @Nullable String heartbeatTopic;
  private transient @Nullable Counter tombstonesSkipped;
  private transient @Nullable Counter heartbeatsSkipped;

  /** A deserializer that stamps dead letters with the current time. */
  public ChangeRecordDeserializer() {
    this(Instant::now);
  }

  /** A deserializer that stamps dead letters with the given clock's time. */
  public ChangeRecordDeserializer(SerializableSupplier<Instant> clock) {
    this(clock, null);
  }

  private ChangeRecordDeserializer(
      SerializableSupplier<Instant> clock, @Nullable String heartbeatTopic) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.heartbeatTopic = heartbeatTopic;
  }

  /**
   * A deserializer that skips every record of {@code heartbeatTopic}, a side topic the source reads
   * only so that its idle poll ends, and stamps dead letters with the current time.
   */
  public static ChangeRecordDeserializer skipping(String heartbeatTopic) {
    return new ChangeRecordDeserializer(
        Instant::now, Objects.requireNonNull(heartbeatTopic, "heartbeatTopic"));
  }

  @Override
  public void open(DeserializationSchema.InitializationContext context) {
    tombstonesSkipped = context.getMetricGroup().counter(TOMBSTONES_SKIPPED);
    heartbeatsSkipped = context.getMetricGroup().counter(HEARTBEATS_SKIPPED);
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<DecodedRecord> out) {
    if (record.topic().equals(heartbeatTopic)) {
      heartbeats().inc();
      return;
    }
    byte[] key = record.key();
    byte[] value = record.value();
    String errorType;
    String errorMessage;
    try {
      ChangeRecord decoded = ChangeRecordCodec.decode(key, value);
      if (decoded instanceof ChangeRecord.Change change) {
        out.collect(DecodedRecord.change(change.envelope(), record.partition(), record.offset()));
      } else {
        tombstones().inc();
      }
      return;
    } catch (InvalidChangeRecordException e) {
      errorType = e.errorType();
      errorMessage = e.getMessage();
    } catch (RuntimeException e) {
      // the exception's own message may quote the payload: keep only its class
      errorType = UNEXPECTED_ERROR;
      errorMessage =
          "unexpected "
              + e.getClass().getName()
              + " while decoding; the record is kept here for analysis";
    }
    DeadLetter deadLetter =
        DeadLetter.of(
            record.topic(),
            record.partition(),
            record.offset(),
            record.timestamp(),
            key,
            value,
            errorType,
            errorMessage,
            clock.get());
    LOG.info(
        "Quarantined {}-{}@{}: {}: {} (key {}, value {})",
        record.topic(),
        record.partition(),
        record.offset(),
        errorType,
        errorMessage,
        Payloads.describe(key),
        Payloads.describe(value));
    out.collect(
        DecodedRecord.quarantined(
            DeadLetterCodec.encode(deadLetter), key, record.partition(), record.offset()));
  }

  private Counter tombstones() {
    Counter counter = tombstonesSkipped;
    if (counter == null) {
      counter = new SimpleCounter(); // used without open(), e.g. by a test
      tombstonesSkipped = counter;
    }
    return counter;
  }

  private Counter heartbeats() {
    Counter counter = heartbeatsSkipped;
    if (counter == null) {
      counter = new SimpleCounter();
      heartbeatsSkipped = counter;
    }
    return counter;
  }

  @Override
  public TypeInformation<DecodedRecord> getProducedType() {
    return DecodedRecord.TYPE;
  }
}
