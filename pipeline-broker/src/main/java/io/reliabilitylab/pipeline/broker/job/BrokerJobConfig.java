package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * Everything the broker pipeline's Flink job is built from: the Kafka cluster and topics it reads
 * and quarantines to, its consumer group, the replay deduplication's state time-to-live, and the
 * settings every reference job shares.
 *
 * @param bootstrapServers the Kafka cluster, {@code host:port[,host:port]}
 * @param topic the change topic the job reads
 * @param deadLetterTopic where records that fail to decode or validate go
 * @param groupId the consumer group the Kafka source commits its offsets to on checkpoints
 * @param dedupTtl how long the deduplication remembers a key's last position
 * @param commitOffsets whether the Kafka source commits its offsets to the group on checkpoints;
 *     off only as a negative control (the group then never shows the job's progress)
 * @param clientProperties extra Kafka client settings (security, say); never shown, they may hold
 *     secrets
 * @param settings warehouse, checkpointing, restarts and sinks
 */
@API(status = EXPERIMENTAL)
public record BrokerJobConfig(
    String bootstrapServers,
    String topic,
    String deadLetterTopic,
    String groupId,
    Duration dedupTtl,
    boolean commitOffsets,
    Properties clientProperties,
    OrdersJobSettings settings) {

  /** The Kafka source's uid: stable, so that its offsets map back on restore. */
  public static final String SOURCE_UID = "kafka-source";

  /** The suffix of the heartbeat topic's name, after the change topic's. */
  public static final String HEARTBEAT_SUFFIX = ".heartbeat";

  /** The job name unless the settings name another. */
  public static final String JOB_NAME = "reliability-lab broker pipeline";

  public BrokerJobConfig {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(dedupTtl, "dedupTtl");
    Objects.requireNonNull(settings, "settings");
    clientProperties = copy(clientProperties);
    if (bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers is blank; give host:port of at least one Kafka broker");
    }
    if (topic.equals(deadLetterTopic) || deadLetterTopic.equals(topic + HEARTBEAT_SUFFIX)) {
      throw new IllegalArgumentException(
          "The dead-letter topic must differ from the change topic '"
              + topic
              + "' and its heartbeat topic");
    }
    if (dedupTtl.isNegative() || dedupTtl.isZero()) {
      throw new IllegalArgumentException("dedupTtl must be positive, got " + dedupTtl);
    }
  }

  /**
   * The side topic the job reads besides the change topic and skips, {@code <topic>.heartbeat}: a
   * record there ends the Kafka source's idle poll, so that it commits a completed checkpoint's
   * offsets at once (see {@code Heartbeats}).
   */
  public String heartbeatTopic() {
    return topic + HEARTBEAT_SUFFIX;
  }

  /** This config with other shared settings. */
  public BrokerJobConfig withSettings(OrdersJobSettings changed) {
    return new BrokerJobConfig(
        bootstrapServers,
        topic,
        deadLetterTopic,
        groupId,
        dedupTtl,
        commitOffsets,
        clientProperties,
        changed);
  }

  /** The settings that decide a verdict, for the run record. No client properties (secrets). */
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("pipeline", "broker");
    map.put(
        "delivery.semantics",
        settings.variant() == JobVariant.BROKEN_PUBLISHER_RESENDS
            ? "AT_LEAST_ONCE into Kafka, not deduplicated (BROKEN: claims EXACTLY_ONCE end to end)"
            : "AT_LEAST_ONCE into Kafka, deduplicated; EXACTLY_ONCE sinks");
    map.put("kafka.bootstrap-servers", bootstrapServers);
    map.put("kafka.topic", topic);
    map.put("kafka.dlq-topic", deadLetterTopic);
    map.put("kafka.heartbeat-topic", heartbeatTopic() + " (read and skipped)");
    map.put("kafka.group-id", groupId);
    map.put(
        "kafka.source",
        commitOffsets
            ? "flink-connector-kafka KafkaSource, offsets committed on checkpoints"
            : "flink-connector-kafka KafkaSource, offsets NOT committed (negative control)");
    map.put("kafka.source.starting-offsets", "committed, else earliest");
    map.put(
        "kafka.dlq-sink",
        switch (settings.variant()) {
          case BROKEN_UNDECODABLE_SKIPPED ->
              "never fed: undecodable records are dropped (BROKEN: no dead letter to repair from)";
          case BROKEN_UNDECODABLE_FAILS ->
              "never fed: an undecodable record fails the job (BROKEN: it fails again at every"
                  + " restart)";
          default -> "KafkaSink AT_LEAST_ONCE (exactly-once needs kafka-clients 3.x)";
        });
    map.put("kafka.client-properties", clientProperties.isEmpty() ? "none" : "set (not shown)");
    map.put("wire.format", "Debezium JSON envelope without schema, key {\"order_id\":N}");
    map.put(
        "dedup",
        switch (settings.variant()) {
          case BROKEN_DEDUP_LAST_ONLY ->
              "keyed by order_id, drops only a repeat of the last position (BROKEN: older"
                  + " redeliveries pass)";
          case BROKEN_PUBLISHER_RESENDS ->
              "none (BROKEN: trusts the connector to publish each change once)";
          default -> "keyed by order_id, drops positions <= last (binlog file, pos, row)";
        });
    map.put("dedup.state-ttl", dedupTtl.toString());
    map.putAll(settings.effectiveConfiguration());
    return map;
  }

  private static Properties copy(Properties properties) {
    Properties copy = new Properties();
    copy.putAll(Objects.requireNonNull(properties, "clientProperties"));
    return copy;
  }

  @Override
  public String toString() {
    return "BrokerJobConfig" + effectiveConfiguration();
  }
}
