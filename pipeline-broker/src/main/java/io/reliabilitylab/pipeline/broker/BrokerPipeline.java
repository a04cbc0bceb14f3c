package io.reliabilitylab.pipeline.broker;

import io.reliabilitylab.pipeline.broker.dlq.DeadLetterLog;
import io.reliabilitylab.pipeline.broker.job.BrokerJob;
import io.reliabilitylab.pipeline.broker.job.ReplayDeduplicator;
import io.reliabilitylab.pipeline.broker.kafka.Heartbeats;
import io.reliabilitylab.pipeline.broker.kafka.KafkaBrokerProcess;
import io.reliabilitylab.pipeline.broker.kafka.KafkaTopics;
import io.reliabilitylab.pipeline.broker.kafka.LabKafkaBroker;
import io.reliabilitylab.pipeline.broker.source.DebeziumPublisher;
import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.cluster.RestFlinkCluster;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.source.mysql.BinlogClients;
import io.reliabilitylab.source.postgres.ReplicationSlots;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.BrokerProcessControl;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running broker pipeline: {@link FlinkPipeline} reading a Kafka topic that a Debezium engine
 * fills from the source, with the broker, the connector, the dead-letter topic and the job's replay
 * deduplication under the lab's control. Closing it cancels the job and stops the connector and a
 * broker it started.
 */
final class BrokerPipeline extends FlinkPipeline
    implements BrokerControl, DeadLetterQueue, ReplayDeduplication, ReplicationSlotAccess {

  private static final Logger LOG = LoggerFactory.getLogger(BrokerPipeline.class);
  private static final Duration POLL = Duration.ofMillis(100);
  // Only the end of a run must show a steady state; earlier observations record what they see.
  private static final Set<String> STEADY_LABELS = Set.of("final");
  // How long the final observation waits for offsets, checkpoint and snapshots to agree. Flink's
  // Kafka source commits a checkpoint's offsets only once its consumer's poll returns, which on
  // an idle topic takes up to its fixed 10 s poll timeout (made configurable by FLINK-40367 only in
  // connector releases for Flink 2.x); heartbeats end that poll, so the wait takes about one
  // checkpoint interval, and the full timeout only where they cannot be sent.
  private static final Duration SETTLE = Duration.ofSeconds(25);
  private static final Duration HEARTBEAT_EVERY = Duration.ofMillis(250);
  private static final Duration SLOT_RELEASE = Duration.ofSeconds(15);

  /** What a run of this pipeline can and cannot show. */
  static final String CLAIM_BOUNDARY =
      "%s -> Debezium embedded engine (at-least-once, file offsets) -> Kafka"
          + " topic -> Flink KafkaSource (offsets committed on checkpoints) -> keyed replay dedup"
          + " -> Iceberg v2 exactly-once sinks; one JVM on one machine, the embedded broker a single"
          + " node with replication 1";

  /** The source's part of the claim boundary, on PostgreSQL. */
  static final String POSTGRES_SOURCE =
      "PostgreSQL pgoutput from a replication slot of the pipeline's own (its LSN not confirmed"
          + " by the connector)";

  /** The same with the broker as its own process, still one node on the same machine. */
  static final String CLAIM_BOUNDARY_BROKER_PROCESS =
      "%s -> Debezium embedded engine (at-least-once, file offsets) -> Kafka"
          + " topic -> Flink KafkaSource (offsets committed on checkpoints) -> keyed replay dedup"
          + " -> Iceberg v2 exactly-once sinks; one machine, the broker a single-node KRaft process"
          + " of its own with replication 1, the rest in the lab's JVM";

  private final @Nullable LabKafkaBroker broker;
  private final DebeziumPublisher publisher;
  private final KafkaTopics topics;
  private final BrokerJob brokerJob;
  private final DeadLetterLog deadLetters;
  private final Heartbeats heartbeats;
  private final DebeziumConnectorControl connector;
  private final List<LinkageRecord> observations = new CopyOnWriteArrayList<>();
  private final String labBootstrap;

  BrokerPipeline(
      FlinkCluster cluster,
      BrokerJob job,
      JobID jobId,
      PipelineConfig config,
      @Nullable LabKafkaBroker broker,
      DebeziumPublisher publisher,
      KafkaTopics topics) {
    super(cluster, job, jobId, config);
    this.broker = broker;
    this.publisher = publisher;
    this.topics = topics;
    this.brokerJob = job;
    this.connector = new DebeziumConnectorControl(publisher);
    // the lab's own clients reach the broker directly, never through a proxy a fault impairs
    this.labBootstrap =
        broker != null ? broker.bootstrapServers() : job.config().bootstrapServers();
    this.deadLetters =
        new DeadLetterLog(labBootstrap, job.config().deadLetterTopic(), job.config().topic());
    this.heartbeats = Heartbeats.to(labBootstrap, job.config().heartbeatTopic());
  }

  @Override
  public String name() {
    return "broker";
  }

  /**
   * At least once from the connector into Kafka (a restarted engine republishes), deduplicated by
   * source position before the exactly-once sinks. The variant that keeps no deduplication claims
   * exactly once all the same: the claim its faults prove wrong.
   */
  @Override
  public DeliverySemantics semantics() {
    return brokerJob.config().settings().variant() == JobVariant.BROKEN_PUBLISHER_RESENDS
        ? DeliverySemantics.EXACTLY_ONCE
        : DeliverySemantics.AT_LEAST_ONCE;
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(super.capabilities());
    offered.addAll(
        Set.of(
            BrokerControl.class,
            SourceConnectorControl.class,
            DeadLetterQueue.class,
            ReplayDeduplication.class,
            RunEvidence.class));
    if (broker instanceof KafkaBrokerProcess) {
      offered.add(BrokerProcessControl.class);
    }
    if (publisher.replicationSlot().isPresent()) {
      offered.add(ReplicationSlotAccess.class);
    }
    return Set.copyOf(offered);
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (type == SourceConnectorControl.class) {
      return Optional.of(type.cast(connector));
    }
    if (type == BrokerControl.class
        || type == DeadLetterQueue.class
        || type == ReplayDeduplication.class) {
      return Optional.of(type.cast(this));
    }
    if (type == ReplicationSlotAccess.class) {
      return publisher.replicationSlot().isPresent()
          ? Optional.of(type.cast(this))
          : Optional.empty();
    }
    if (type == BrokerProcessControl.class) {
      return broker instanceof KafkaBrokerProcess process
          ? Optional.of(type.cast(new ProcessBrokerControl(process)))
          : Optional.empty();
    }
    if (type == RunEvidence.class) {
      return Optional.of(type.cast(new BrokerRunEvidence(this, this)));
    }
    return super.capability(type);
  }

  @Override
  protected Map<String, String> sourceVersions() {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("debezium", mavenVersion("io.debezium", "debezium-embedded"));
    String connector =
        publisher.replicationSlot().isPresent()
            ? "debezium-connector-postgres"
            : "debezium-connector-mariadb";
    versions.put(connector.replace('-', '_'), mavenVersion("io.debezium", connector));
    versions.put("kafka_clients", org.apache.kafka.common.utils.AppInfoParser.getVersion());
    versions.put(
        "kafka_broker",
        broker == null
            ? "external"
            : (broker instanceof KafkaBrokerProcess ? "KRaft process " : "embedded KRaft ")
                + mavenVersion("org.apache.kafka", "kafka_2.13"));
    versions.put(
        "flink_connector_kafka", mavenVersion("org.apache.flink", "flink-connector-kafka"));
    return versions;
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>(super.effectiveConfiguration());
    publisher
        .effectiveConfiguration()
        .forEach((key, value) -> settings.put("connector." + key, value));
    settings.put(
        "claim_boundary.pipeline",
        (broker instanceof KafkaBrokerProcess ? CLAIM_BOUNDARY_BROKER_PROCESS : CLAIM_BOUNDARY)
            .formatted(
                publisher.replicationSlot().isPresent() ? POSTGRES_SOURCE : "MariaDB GTID binlog"));
    publisher.replicationSlot().ifPresent(slot -> settings.put("source.slot", slot));
    settings.put(
        "kafka.broker.kind",
        broker != null ? broker.describe() : "external cluster by bootstrap servers");
    return settings;
  }

  /**
   * The engine streams once it runs and its binlog dump is connected to the source (on PostgreSQL:
   * a walsender holds its slot); the job reads the topic from the start, so nothing published
   * before it ran is missed.
   */
  @Override
  protected void awaitSourceStreaming(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    while (!publisher.isRunning() || !readerConnected()) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException(
            "The Debezium engine did not stream from the source within "
                + timeout.toSeconds()
                + " s: it is "
                + publisher.status()
                + publisher.failure().map(failure -> " (" + failure.getMessage() + ")").orElse(""));
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private boolean readerConnected() throws Exception {
    Optional<String> slot = publisher.replicationSlot();
    return slot.isPresent()
        ? ReplicationSlots.of(config.source(), slot.get()).activePid() != 0
        : BinlogClients.dumpConnected(config.source());
  }

  @Override
  public String replicationSlot() {
    return publisher
        .replicationSlot()
        .orElseThrow(() -> new IllegalStateException("A MySQL/MariaDB source has no slot"));
  }

  // BrokerControl

  @Override
  public void stop() throws Exception {
    requireLabBroker("stop").stop();
  }

  @Override
  public void start() throws Exception {
    requireLabBroker("start").start();
  }

  private LabKafkaBroker requireLabBroker(String what) {
    if (broker == null) {
      throw new UnsupportedOperationException(
          "The lab can " + what + " only a broker it started, not the cluster at " + labBootstrap);
    }
    return broker;
  }

  @Override
  public String address() {
    return labBootstrap;
  }

  /**
   * Offsets, the latest completed checkpoint and both tables' current snapshots. The {@code final}
   * observation waits up to {@link #SETTLE} until they agree (lag 0, both snapshots committed by
   * that checkpoint), so that what it shows is a steady state, not commits still in flight; if they
   * never agree it records what it saw.
   */
  @Override
  public LinkageRecord observeLinkage(String label) throws Exception {
    boolean steady = STEADY_LABELS.contains(label);
    long deadline = System.nanoTime() + SETTLE.toNanos();
    LinkageRecord observed = linkageNow(label);
    long start = System.nanoTime();
    String waitedFor = unsettled(observed);
    String firstWait = waitedFor;
    long heartbeatsBefore = heartbeats.sent();
    long nextHeartbeat = System.nanoTime();
    while (steady && !waitedFor.isEmpty() && System.nanoTime() < deadline) {
      // a checkpoint's offsets wait in the source's fetcher until its poll ends: end it
      if (lagging(observed) && System.nanoTime() - nextHeartbeat >= 0) {
        heartbeats.beat();
        nextHeartbeat = System.nanoTime() + HEARTBEAT_EVERY.toNanos();
      }
      Thread.sleep(POLL.toMillis());
      observed = linkageNow(label);
      waitedFor = unsettled(observed);
    }
    long waitedMs = (System.nanoTime() - start) / 1_000_000;
    if (steady && (waitedMs > 1_000 || !waitedFor.isEmpty())) {
      LOG.info(
          "Linkage '{}' {} after {} ms and {} heartbeat records (first waiting for: {}):"
              + " offsets {}, checkpoint {}, snapshots {}",
          label,
          waitedFor.isEmpty() ? "settled" : "did not settle (" + waitedFor + ")",
          waitedMs,
          heartbeats.sent() - heartbeatsBefore,
          firstWait,
          observed.offsets(),
          observed.checkpoint(),
          observed.snapshots());
    }
    observations.add(observed);
    return observed;
  }

  private LinkageRecord linkageNow(String label) {
    String topic = brokerJob.config().topic();
    String group = brokerJob.config().groupId();
    List<LinkageRecord.PartitionOffset> offsets = topics.partitionOffsets(group, topic);
    LinkageRecord.CheckpointRef checkpoint =
        checkpoints().stream()
            .filter(CheckpointInfo::completed)
            .filter(info -> !info.savepoint())
            .reduce((first, second) -> second)
            .map(
                info ->
                    new LinkageRecord.CheckpointRef(info.id(), info.status(), info.externalPath()))
            .orElse(null);
    Map<String, LinkageRecord.SnapshotRef> snapshots = new LinkedHashMap<>();
    for (String table : List.of(tables().currentTable(), tables().changelogTable())) {
      List<SnapshotInfo> all = tables().snapshots(table);
      if (!all.isEmpty()) {
        SnapshotInfo latest = all.get(all.size() - 1);
        snapshots.put(
            table,
            new LinkageRecord.SnapshotRef(
                latest.snapshotId(), latest.flinkJobId(), latest.committedCheckpointId()));
      }
    }
    return new LinkageRecord(label, Instant.now(), topic, group, offsets, checkpoint, snapshots);
  }

  private static boolean lagging(LinkageRecord observed) {
    return observed.checkpoint() != null
        && observed.offsets().stream().anyMatch(offset -> offset.lag() > 0);
  }

  /** What a steady linkage still lacks, empty once it settled. */
  private static String unsettled(LinkageRecord observed) {
    LinkageRecord.CheckpointRef checkpoint = observed.checkpoint();
    if (checkpoint == null) {
      return "a completed checkpoint";
    }
    if (observed.snapshots().size() < 2) {
      return "a snapshot of both tables";
    }
    if (!observed.offsets().stream().allMatch(offset -> offset.lag() == 0)) {
      return "consumer lag 0 " + observed.offsets();
    }
    for (Map.Entry<String, LinkageRecord.SnapshotRef> table : observed.snapshots().entrySet()) {
      Long committed = table.getValue().committedCheckpointId();
      if (committed == null || committed != checkpoint.id()) {
        return table.getKey()
            + " committed by checkpoint "
            + checkpoint.id()
            + ", not "
            + committed;
      }
    }
    return "";
  }

  @Override
  public List<LinkageRecord> observations() {
    return List.copyOf(observations);
  }

  // DeadLetterQueue

  @Override
  public String topic() {
    return brokerJob.config().deadLetterTopic();
  }

  @Override
  public List<DlqRecord> records() {
    return deadLetters.records();
  }

  @Override
  public Repair repair(DlqRecord record) {
    return deadLetters.repair(record);
  }

  @Override
  public List<Repair> repairs() {
    return deadLetters.repairs();
  }

  // ReplayDeduplication

  @Override
  public long droppedReplays() throws Exception {
    return dedupCounter(ReplayDeduplicator.REPLAYS_DROPPED);
  }

  @Override
  public long seenReplays() throws Exception {
    return dedupCounter(ReplayDeduplicator.REPLAYS_SEEN);
  }

  private long dedupCounter(String metric) throws Exception {
    RestFlinkCluster rest = restCluster();
    if (rest == null) {
      throw new UnsupportedOperationException("The dedup counter is read through Flink's REST API");
    }
    return rest.operatorMetricSum(currentJobId(), metric);
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      closeQuietly(publisher::close, "the Debezium engine");
      // the slot holds the run's WAL (the connector confirms none of it): dropped with the run
      publisher
          .replicationSlot()
          .ifPresent(
              slot -> ReplicationSlots.of(config.source(), slot).dropWhenReleased(SLOT_RELEASE));
      closeQuietly(deadLetters::close, "the dead-letter reader");
      closeQuietly(heartbeats::close, "the heartbeat producer");
      closeQuietly(topics::close, "the Kafka admin client");
      if (broker != null) {
        closeQuietly(broker::close, "the lab's Kafka broker");
      }
    }
  }

  private interface Closing {
    void close() throws Exception;
  }

  private static void closeQuietly(Closing closing, String what) {
    try {
      closing.close();
    } catch (Exception e) {
      LOG.warn("Closing {} failed: {}", what, e.toString());
    }
  }
}
