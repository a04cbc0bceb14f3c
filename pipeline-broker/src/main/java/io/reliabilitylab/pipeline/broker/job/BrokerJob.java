package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingSource;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.job.OrdersTopology;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apiguardian.api.API;

/**
 * The broker pipeline's Flink job: Flink's {@code KafkaSource} reads the change topic (offsets
 * committed on checkpoints), a router sends records that fail to decode or validate to the
 * dead-letter topic and lets the job go on, a keyed deduplication drops replays by source position,
 * and {@link OrdersTopology} writes {@code orders_current} and {@code orders_changelog} exactly as
 * the direct pipeline does.
 */
@API(status = EXPERIMENTAL)
public final class BrokerJob implements OrdersJob {

  private final BrokerJobConfig config;

  private BrokerJob(BrokerJobConfig config) {
    this.config = config;
  }

  /** A job for a configuration. */
  public static BrokerJob create(BrokerJobConfig config) {
    return new BrokerJob(Objects.requireNonNull(config, "config"));
  }

  public BrokerJobConfig config() {
    return config;
  }

  @Override
  public OrdersJobSettings settings() {
    return config.settings();
  }

  @Override
  public BrokerJob withParallelism(int parallelism) {
    return create(config.withSettings(settings().toBuilder().parallelism(parallelism).build()));
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    return config.effectiveConfiguration();
  }

  @Override
  public String name() {
    return settings().jobName();
  }

  // flink-connector-kafka 3.4 takes the reset strategy kafka-clients 4.x deprecated
  @SuppressWarnings("deprecation")
  @Override
  public void build(StreamExecutionEnvironment env) {
    OrdersTopology.createTablesIfAbsent(settings());
    OrdersTopology.configure(env, settings());
    KafkaSource<DecodedRecord> kafka =
        KafkaSource.<DecodedRecord>builder()
            .setBootstrapServers(config.bootstrapServers())
            // the heartbeat topic ends an idle poll, so that offsets are committed at once
            .setTopics(config.topic(), config.heartbeatTopic())
            .setGroupId(config.groupId())
            .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
            .setDeserializer(ChangeRecordDeserializer.skipping(config.heartbeatTopic()))
            .setProperty("commit.offsets.on.checkpoint", Boolean.toString(config.commitOffsets()))
            // a broker that restarts is found again within a second, not after minutes
            .setProperty("reconnect.backoff.max.ms", "1000")
            .setProperty("request.timeout.ms", "10000")
            .setProperties(config.clientProperties())
            .build();
    String name = "kafka " + config.topic();
    DataStream<DecodedRecord> decoded =
        (settings().faultPoints()
                ? env.fromSource(
                    FaultInjectingSource.wrap(kafka).withFaultChannel(settings().faultChannel()),
                    WatermarkStrategy.noWatermarks(),
                    name)
                : env.fromSource(kafka, WatermarkStrategy.noWatermarks(), name))
            .uid(BrokerJobConfig.SOURCE_UID)
            .name(name);
    SingleOutputStreamOperator<ChangeEnvelope> changes =
        switch (settings().variant()) {
          case BROKEN_UNDECODABLE_SKIPPED -> QuarantineRouter.routeSkipping(decoded);
          case BROKEN_UNDECODABLE_FAILS -> QuarantineRouter.routeFailing(decoded);
          default -> QuarantineRouter.route(decoded);
        };
    changes
        .getSideOutput(QuarantineRouter.DEAD_LETTERS)
        .sinkTo(DeadLetterSink.create(config.bootstrapServers(), config.deadLetterTopic()))
        .uid(DeadLetterSink.UID)
        .name("dead letters -> " + config.deadLetterTopic());
    OrdersTopology.sinkTo(
        switch (settings().variant()) {
          case BROKEN_DEDUP_LAST_ONLY -> ReplayDeduplicator.dedupBroken(changes, config.dedupTtl());
          // trusts the connector to publish each change once
          case BROKEN_PUBLISHER_RESENDS -> changes;
          default -> ReplayDeduplicator.dedup(changes, config.dedupTtl());
        },
        settings());
  }
}
