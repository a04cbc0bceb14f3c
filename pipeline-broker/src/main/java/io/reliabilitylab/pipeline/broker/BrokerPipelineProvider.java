package io.reliabilitylab.pipeline.broker;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.faults.network.TcpProxy;
import io.reliabilitylab.pipeline.broker.job.BrokerJob;
import io.reliabilitylab.pipeline.broker.job.BrokerJobConfig;
import io.reliabilitylab.pipeline.broker.job.DeadLetterSink;
import io.reliabilitylab.pipeline.broker.job.ReplayDeduplicator;
import io.reliabilitylab.pipeline.broker.kafka.EmbeddedKafkaBroker;
import io.reliabilitylab.pipeline.broker.kafka.KafkaBrokerProcess;
import io.reliabilitylab.pipeline.broker.kafka.KafkaTopics;
import io.reliabilitylab.pipeline.broker.kafka.LabKafkaBroker;
import io.reliabilitylab.pipeline.broker.kafka.SharedKafkaBrokers;
import io.reliabilitylab.pipeline.broker.source.DebeziumPublisher;
import io.reliabilitylab.pipeline.broker.source.DebeziumPublisherBuilder;
import io.reliabilitylab.pipeline.flink.FlinkClusters;
import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.PipelineProxies;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.job.JobOptions;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.mysql.ExternalDatabase;
import io.reliabilitylab.source.postgres.ExternalPostgres;
import io.reliabilitylab.source.postgres.ReplicationSlots;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.BrokerNetworkLink;
import io.reliabilitylab.spi.pipeline.BrokerProcessControl;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.flink.api.common.JobID;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The {@code broker} reference pipeline: MySQL/MariaDB binlog → Debezium embedded engine → a Kafka
 * topic → Flink (dead-letter topic, replay deduplication) → Iceberg {@code orders_current} (upsert)
 * and {@code orders_changelog} (append). Starts an in-process KRaft broker unless {@value
 * #BOOTSTRAP_SERVERS} names a cluster, and an embedded MiniCluster unless {@code
 * flink.rest-address} names a session cluster.
 */
@API(status = EXPERIMENTAL)
@AutoService(PipelineProvider.class)
public final class BrokerPipelineProvider implements PipelineProvider {

  /** An external Kafka cluster instead of the embedded broker. */
  public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap-servers";

  /**
   * The change topic; default {@code lab.<database>.<table>} ({@code lab.public.<table>} on
   * PostgreSQL: Debezium's naming).
   */
  public static final String TOPIC = "kafka.topic";

  /**
   * {@code true} runs the lab's broker as its own process ({@link KafkaBrokerProcess}) instead of
   * in the lab's JVM, so that it can be killed with SIGKILL ({@link BrokerProcessControl}); default
   * {@code false}. Ignored with {@value #BOOTSTRAP_SERVERS}.
   */
  public static final String BROKER_PROCESS = "broker.process";

  /** Partitions of the change topic when the lab creates it; default 3. */
  public static final String PARTITIONS = "kafka.partitions";

  /** How long the deduplication remembers a key, in milliseconds; default one hour. */
  public static final String DEDUP_TTL_MS = "dedup.ttl-ms";

  /**
   * {@code false} stops the Kafka source from committing its offsets on checkpoints: a negative
   * control the offset ↔ checkpoint ↔ snapshot linkage check must catch. Default {@code true}.
   */
  public static final String COMMIT_OFFSETS = "kafka.commit-offsets-on-checkpoint";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CHANNEL_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration SLOT_RELEASE = Duration.ofSeconds(15);

  @Override
  public String name() {
    return "broker";
  }

  @Override
  public String description() {
    return "MySQL/MariaDB binlog -> Debezium embedded -> Kafka (DLQ) -> Flink (dedup) -> Iceberg"
        + " orders_current (upsert) and orders_changelog (append)";
  }

  @Override
  public Set<String> requiredOptions() {
    return JobOptions.REQUIRED;
  }

  @Override
  public Set<String> optionalOptions() {
    Set<String> optional =
        new HashSet<>(
            Set.of(
                BOOTSTRAP_SERVERS,
                TOPIC,
                PARTITIONS,
                DEDUP_TTL_MS,
                COMMIT_OFFSETS,
                BROKER_PROCESS));
    optional.addAll(JobOptions.OPTIONAL);
    return Set.copyOf(optional);
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(FlinkPipeline.EMBEDDED_CAPABILITIES);
    offered.addAll(
        Set.of(
            BrokerControl.class,
            SourceConnectorControl.class,
            DeadLetterQueue.class,
            ReplayDeduplication.class,
            RunEvidence.class,
            SourceNetworkLink.class,
            BrokerNetworkLink.class));
    return Set.copyOf(offered);
  }

  /**
   * With {@value #BROKER_PROCESS} {@code true} (and no external cluster) the broker can be killed.
   */
  @Override
  public Set<Class<? extends PipelineCapability>> capabilities(Map<String, String> options) {
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(FlinkClusters.capabilities(capabilities(), options));
    if (brokerAsProcess(options)) {
      offered.add(BrokerProcessControl.class);
    }
    if (options.containsKey(BOOTSTRAP_SERVERS)) {
      // an external cluster advertises its own addresses: no proxy can stay in the way
      offered.remove(BrokerNetworkLink.class);
    }
    if (LabOptions.POSTGRESQL.equals(options.get(LabOptions.SOURCE_ENGINE))) {
      // on PostgreSQL the connector streams through a slot of its own (BrokerPipeline)
      offered.add(ReplicationSlotAccess.class);
    }
    return Set.copyOf(offered);
  }

  private static boolean brokerAsProcess(Map<String, String> options) {
    String value = options.getOrDefault(BROKER_PROCESS, "false").strip();
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(
          "Option " + BROKER_PROCESS + " is true or false, got '" + value + "'");
    }
    return value.equals("true") && !options.containsKey(BOOTSTRAP_SERVERS);
  }

  /**
   * Whether the scenario runs on the JVM's shared embedded broker: the default broker and topic; a
   * broker process, an external cluster or a topic named by the user get no sharing.
   */
  static boolean sharesBroker(Map<String, String> options) {
    return !options.containsKey(BOOTSTRAP_SERVERS)
        && !options.containsKey(TOPIC)
        && !brokerAsProcess(options);
  }

  @Override
  public PipelineUnderTest start(PipelineConfig config) throws Exception {
    for (String key : requiredOptions()) {
      if (config.option(key).isEmpty()) {
        throw new IllegalArgumentException(
            "The broker pipeline needs option '" + key + "'; required: " + requiredOptions());
      }
    }
    Path work = config.workDirectory();
    String table = config.source().table();
    @Nullable LabKafkaBroker broker = null;
    KafkaTopics topics = null;
    DebeziumPublisher publisher = null;
    FlinkCluster cluster = null;
    BrokerPipeline pipeline = null;
    OrdersJobSettings settings = JobOptions.settings(config, BrokerJobConfig.JOB_NAME);
    if (settings.variant() == JobVariant.BROKEN_SOURCE_NOT_RESTORED
        || settings.variant() == JobVariant.BROKEN_SOURCE_NO_RECONNECT
        || settings.variant() == JobVariant.BROKEN_SOURCE_COMMITS_READ_POSITION) {
      throw new IllegalArgumentException(
          JobVariant.OPTION
              + "="
              + settings.variant().text()
              + " breaks the direct pipeline's CDC source; run it with --pipeline direct");
    }
    if (settings.alignTransactions()) {
      throw new IllegalArgumentException(
          OrdersJobSettings.TRANSACTIONS_OPTION
              + "=aligned needs one ordered change log with fences; the broker pipeline reads its"
              + " topic's partitions independently; run it with --pipeline direct");
    }
    // the connector and the job reach the source and the broker through the lab's proxies when a
    // network fault needs the links
    PipelineProxies proxies = PipelineProxies.forSource(config);
    try {
      String bootstrap;
      boolean sharedBroker = sharesBroker(config.options());
      if (config.option(BOOTSTRAP_SERVERS).isPresent()) {
        bootstrap = config.option(BOOTSTRAP_SERVERS).get();
      } else if (sharedBroker) {
        broker = SharedKafkaBrokers.acquire(work.resolve("kafka"));
        bootstrap = broker.bootstrapServers();
      } else {
        broker =
            brokerAsProcess(config.options())
                ? KafkaBrokerProcess.builder(work.resolve("kafka")).build()
                : EmbeddedKafkaBroker.builder(work.resolve("kafka")).build();
        broker.start();
        bootstrap = broker.bootstrapServers();
      }
      proxies = withBrokerProxy(proxies, broker);
      // the pipeline's clients (the publisher's producer, the job's consumer) go through the
      // broker's proxy when there is one; the lab's own (topics, heartbeats, the DLQ) do not
      String pipelineBootstrap =
          proxies.broker().isPresent()
              ? broker.proxiedListener().orElseThrow().bootstrapServers()
              : bootstrap;
      boolean postgres = config.source().jdbcUrl().startsWith("jdbc:postgresql:");
      CdcSource source =
          postgres ? ExternalPostgres.of(config.source()) : ExternalDatabase.of(config.source());
      // on a shared broker every scenario publishes to topics of its own
      String topic =
          config.option(
              TOPIC,
              DebeziumPublisher.capturedTopic(source, DebeziumPublisher.DEFAULT_TOPIC_PREFIX, table)
                  + (sharedBroker ? "." + work.getFileName() : ""));
      String deadLetterTopic = DeadLetterSink.topicFor(topic);
      topics = KafkaTopics.connect(bootstrap, ADMIN_TIMEOUT);
      int partitions = Integer.parseInt(config.option(PARTITIONS, "3"));
      if (!topics.exists(topic)) {
        topics.createTopic(topic, partitions);
      }
      if (!topics.exists(deadLetterTopic)) {
        topics.createTopic(deadLetterTopic, 1);
      }
      String group = "reliability-lab-" + work.getFileName();
      DebeziumPublisherBuilder publishing =
          DebeziumPublisher.builder(source, pipelineBootstrap, work.resolve("connector"))
              .table(table)
              .topic(topic);
      proxies.source().ifPresent(proxy -> publishing.connectThrough(proxy.host(), proxy.port()));
      if (!postgres) {
        publishing.connectorClass(DebeziumPublisher.connectorFor(source.serverVersion()));
      }
      if (settings.variant() == JobVariant.BROKEN_PUBLISHER_DROPS_UNACKNOWLEDGED) {
        publishing.dropUnacknowledged();
      }
      if (settings.variant() == JobVariant.BROKEN_PUBLISHER_RESENDS) {
        publishing.resendUnacknowledged();
      }
      publisher = publishing.build();
      publisher.start();

      BrokerJobConfig jobConfig =
          new BrokerJobConfig(
              pipelineBootstrap,
              topic,
              deadLetterTopic,
              group,
              config
                  .option(DEDUP_TTL_MS)
                  .map(ms -> Duration.ofMillis(Long.parseLong(ms)))
                  .orElse(ReplayDeduplicator.DEFAULT_TTL),
              Boolean.parseBoolean(config.option(COMMIT_OFFSETS, "true")),
              new Properties(),
              settings);
      // a partition for every source reader, so that a heartbeat reaches each reader's fetcher
      if (!topics.exists(jobConfig.heartbeatTopic())) {
        topics.createTopic(
            jobConfig.heartbeatTopic(), Math.max(partitions, settings.parallelism()));
      }
      cluster = FlinkClusters.start(config);
      BrokerJob job = BrokerJob.create(jobConfig);
      JobID jobId = cluster.submit(job);
      pipeline = new BrokerPipeline(cluster, job, jobId, config, broker, publisher, topics);
      pipeline.routedThrough(proxies);
      // the one moment a snapshot-phase fault can still be armed: submitted, its first element
      // held until the listener returns
      pipeline.jobSubmitted(config.onJobSubmitted());
      pipeline.awaitStreaming(START_TIMEOUT);
      pipeline.verifyFaultChannel(CHANNEL_TIMEOUT);
      return pipeline;
    } catch (Exception e) {
      if (pipeline != null) {
        pipeline.close();
      } else {
        closeAll(cluster, publisher, topics, broker, proxies);
        if (publisher != null) {
          // the connector may have created its slot before the start failed
          publisher
              .replicationSlot()
              .ifPresent(
                  slot ->
                      ReplicationSlots.of(config.source(), slot).dropWhenReleased(SLOT_RELEASE));
        }
      }
      throw e;
    }
  }

  /**
   * The proxies and one in front of the lab's broker, when the scenario asked for proxies and the
   * broker has a proxied listener (an external cluster has none: its link is not offered).
   */
  private static PipelineProxies withBrokerProxy(
      PipelineProxies proxies, @Nullable LabKafkaBroker broker) {
    if (proxies.source().isEmpty() || broker == null || broker.proxiedListener().isEmpty()) {
      return proxies;
    }
    LabKafkaBroker.ProxiedListener listener = broker.proxiedListener().get();
    return proxies.withBroker(
        TcpProxy.start(
            "broker", listener.host(), listener.brokerPort(), listener.advertisedPort()));
  }

  private static void closeAll(AutoCloseable... parts) {
    for (AutoCloseable part : parts) {
      if (part == null) {
        continue;
      }
      try {
        part.close();
      } catch (Exception e) {
        // the start failed already; that failure is the one to report
      }
    }
  }
}
