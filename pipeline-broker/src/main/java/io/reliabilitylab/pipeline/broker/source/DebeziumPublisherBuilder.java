package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.postgres.PostgresOrdersTable;
import io.reliabilitylab.source.postgres.PostgresSource;
import io.reliabilitylab.source.postgres.ReplicationSlots;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Settings for a {@link DebeziumPublisher}, and the Debezium engine and Kafka producer properties
 * they make (on MySQL/MariaDB or PostgreSQL).
 *
 * <pre>{@code
 * DebeziumPublisher publisher = DebeziumPublisher.builder(source, "127.0.0.1:9092", workDir)
 *     .topicPrefix("lab")                        // Debezium's topic.prefix, default "lab"
 *     .table("orders")                           // default orders
 *     .topic("lab.lab.orders")                   // default <topic.prefix>.<db>.<table>
 *     .serverId(6401)                            // default: random, unique per publisher
 *     .snapshotMode("initial")                   // Debezium's snapshot.mode
 *     .pollInterval(Duration.ofMillis(50))       // poll.interval.ms
 *     .maxBatchSize(2048)                        // max.batch.size
 *     .offsetFlushInterval(Duration.ofMillis(200))
 *     .producerLinger(Duration.ofMillis(5))
 *     .connectorProperty("snapshot.locking.mode", "minimal")
 *     .producerProperty("compression.type", "lz4")
 *     .listener(record -> log.debug("{}", record))
 *     .build();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DebeziumPublisherBuilder {

  /** How often the binlog client's keep-alive looks for a lost connection. */
  static final long KEEP_ALIVE_INTERVAL_MS = 5_000;

  private static final Pattern TOPIC_PREFIX_PATTERN =
      Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  final CdcSource source;
  final String bootstrapServers;
  final Path workDirectory;
  String topicPrefix = DebeziumPublisher.DEFAULT_TOPIC_PREFIX;
  String table = TableSchema.ORDERS.name();
  String slotName = ReplicationSlots.newName("srl_broker");
  @Nullable String topic;
  // where the connector connects to, when not the source's own address (the lab's proxy)
  @Nullable String connectHost;
  int connectPort;
  private long serverId = ThreadLocalRandom.current().nextLong(10_000, 1_000_000);
  private String engineName = "srl-debezium";
  private String snapshotMode = "initial";
  private String connectorClass = DebeziumPublisher.CONNECTOR_CLASS;
  private Duration pollInterval = Duration.ofMillis(50);
  private int maxBatchSize = 2048;
  private int maxQueueSize;
  private Duration offsetFlushInterval = Duration.ofMillis(200);
  private Duration retriableRestartWait = Duration.ofMillis(500);
  private Duration producerLinger = Duration.ofMillis(5);
  private Unacknowledged unacknowledged = Unacknowledged.STOP;
  Duration startTimeout = Duration.ofSeconds(60);
  Duration stopTimeout = Duration.ofSeconds(60);
  @Nullable PublishListener listener;
  private final Map<String, String> connectorOverrides = new LinkedHashMap<>();
  private final Map<String, Object> producerOverrides = new LinkedHashMap<>();

  DebeziumPublisherBuilder(CdcSource source, String bootstrapServers, Path workDirectory) {
    this.source = Objects.requireNonNull(source, "source");
    this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
    if (bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "bootstrapServers is empty: give host:port of a broker, e.g. 127.0.0.1:9092");
    }
  }

  /** Debezium's {@code topic.prefix} (its logical server name); default {@code lab}. */
  public DebeziumPublisherBuilder topicPrefix(String topicPrefix) {
    Objects.requireNonNull(topicPrefix, "topicPrefix");
    if (!TOPIC_PREFIX_PATTERN.matcher(topicPrefix).matches()) {
      throw new IllegalArgumentException(
          "topicPrefix '"
              + topicPrefix
              + "' is not accepted: use letters, digits, _, . and -, e.g. lab");
    }
    this.topicPrefix = topicPrefix;
    return this;
  }

  /** The table to capture in the source's database; default {@code orders}. */
  public DebeziumPublisherBuilder table(String table) {
    this.table = source.orders(table).name();
    return this;
  }

  /**
   * The PostgreSQL replication slot the connector creates and resumes; default {@code
   * srl_broker_<random>}, one per publisher. Ignored on MySQL/MariaDB.
   */
  public DebeziumPublisherBuilder slotName(String slotName) {
    this.slotName = ReplicationSlots.checkName(slotName);
    return this;
  }

  /** The topic to publish to; default {@code <topic.prefix>.<database>.<table>}. */
  public DebeziumPublisherBuilder topic(String topic) {
    Objects.requireNonNull(topic, "topic");
    if (topic.isBlank()) {
      throw new IllegalArgumentException("The topic name is empty");
    }
    this.topic = topic;
    return this;
  }

  /** Debezium's {@code database.server.id}: unique among the source's replicas (MySQL/MariaDB). */
  public DebeziumPublisherBuilder serverId(long serverId) {
    if (serverId < 1 || serverId > 4_294_967_295L) {
      throw new IllegalArgumentException(
          "serverId must be between 1 and 4294967295, got " + serverId);
    }
    this.serverId = serverId;
    return this;
  }

  /** The engine's name, which keys its offsets; default {@code srl-debezium}. */
  public DebeziumPublisherBuilder engineName(String engineName) {
    Objects.requireNonNull(engineName, "engineName");
    if (engineName.isBlank()) {
      throw new IllegalArgumentException("The engine name is empty");
    }
    this.engineName = engineName;
    return this;
  }

  /**
   * The Debezium connector class for a MySQL/MariaDB server: the MariaDB connector by default;
   * {@link DebeziumPublisher#connectorFor} picks the right one for a server. A PostgreSQL source
   * always gets {@value DebeziumPublisher#POSTGRES_CONNECTOR_CLASS}.
   */
  public DebeziumPublisherBuilder connectorClass(String connectorClass) {
    if (!connectorClass.equals(DebeziumPublisher.CONNECTOR_CLASS)
        && !connectorClass.equals(DebeziumPublisher.MYSQL_CONNECTOR_CLASS)) {
      throw new IllegalArgumentException(
          "Unsupported connector class '"
              + connectorClass
              + "'; use "
              + DebeziumPublisher.CONNECTOR_CLASS
              + " (MariaDB) or "
              + DebeziumPublisher.MYSQL_CONNECTOR_CLASS
              + " (MySQL 8)");
    }
    this.connectorClass = connectorClass;
    return this;
  }

  /**
   * How long the engine waits before it restarts its task after a retriable error, such as a lost
   * source connection (Debezium's {@code retriable.restart.connector.wait.ms}); default 500 ms.
   */
  public DebeziumPublisherBuilder retriableRestartWait(Duration wait) {
    this.retriableRestartWait = positive(wait, "retriableRestartWait");
    return this;
  }

  /**
   * The address the connector reaches the source at, when not the source's own: the lab's proxy in
   * front of it, which network faults impair. The publisher's own probes still go to the source.
   */
  public DebeziumPublisherBuilder connectThrough(String host, int port) {
    this.connectHost = Objects.requireNonNull(host, "host");
    this.connectPort = port;
    return this;
  }

  /** Debezium's {@code snapshot.mode}: {@code initial} (default), {@code no_data}, ... */
  public DebeziumPublisherBuilder snapshotMode(String snapshotMode) {
    this.snapshotMode = Objects.requireNonNull(snapshotMode, "snapshotMode");
    return this;
  }

  /** How long the engine waits for changes before it hands over a batch; default 50 ms. */
  public DebeziumPublisherBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = positive(pollInterval, "pollInterval");
    return this;
  }

  /** Most records per batch; default 2048. */
  public DebeziumPublisherBuilder maxBatchSize(int maxBatchSize) {
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("maxBatchSize must be at least 1, got " + maxBatchSize);
    }
    this.maxBatchSize = maxBatchSize;
    return this;
  }

  /** The engine's queue; must exceed the batch size; default 4 × batch size (at least 8192). */
  public DebeziumPublisherBuilder maxQueueSize(int maxQueueSize) {
    if (maxQueueSize < 2) {
      throw new IllegalArgumentException("maxQueueSize must be at least 2, got " + maxQueueSize);
    }
    this.maxQueueSize = maxQueueSize;
    return this;
  }

  /** How often the engine flushes offsets it was given; default 200 ms. */
  public DebeziumPublisherBuilder offsetFlushInterval(Duration interval) {
    this.offsetFlushInterval = positive(interval, "offsetFlushInterval");
    return this;
  }

  /** The producer's {@code linger.ms}; default 5 ms (0 is allowed). */
  public DebeziumPublisherBuilder producerLinger(Duration linger) {
    Objects.requireNonNull(linger, "linger");
    if (linger.isNegative()) {
      throw new IllegalArgumentException("producerLinger cannot be negative, got " + linger);
    }
    this.producerLinger = linger;
    return this;
  }

  /**
   * BROKEN (a negative control): a record the broker does not acknowledge within a second is logged
   * and dropped, and marked processed all the same, so the engine goes on past it: the send error
   * handler that logs and moves on, at most once. The producer gives up after {@code
   * delivery.timeout.ms} and {@code max.block.ms} 1000 (no idempotence, no retries). Faithful while
   * the broker answers; changes read while it is down are lost.
   */
  public DebeziumPublisherBuilder dropUnacknowledged() {
    this.unacknowledged = Unacknowledged.DROP;
    return this;
  }

  /**
   * BROKEN (a negative control): the producer gives up waiting for a request after {@value
   * Unacknowledged#RESEND_REQUEST_TIMEOUT_MS} ms and sends it again, without idempotence, so the
   * broker cannot tell the copy from the original. Faithful while the broker answers in time; over
   * a slow link the request given up on still arrives, and its records land twice.
   */
  public DebeziumPublisherBuilder resendUnacknowledged() {
    this.unacknowledged = Unacknowledged.RESEND;
    return this;
  }

  Unacknowledged unacknowledged() {
    return unacknowledged;
  }

  /** How long {@link DebeziumPublisher#start()} waits for the connector task; default 60 s. */
  public DebeziumPublisherBuilder startTimeout(Duration timeout) {
    this.startTimeout = positive(timeout, "startTimeout");
    return this;
  }

  /** How long a stop waits for the engine to end; default 60 s. */
  public DebeziumPublisherBuilder stopTimeout(Duration timeout) {
    this.stopTimeout = positive(timeout, "stopTimeout");
    return this;
  }

  /** Told about every acknowledged record (on the engine's thread). */
  public DebeziumPublisherBuilder listener(PublishListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** One more Debezium setting, overriding the lab's (e.g. {@code snapshot.locking.mode}). */
  public DebeziumPublisherBuilder connectorProperty(String name, String value) {
    connectorOverrides.put(
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /** One more producer setting, overriding the lab's (e.g. {@code compression.type}). */
  public DebeziumPublisherBuilder producerProperty(String name, Object value) {
    producerOverrides.put(
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  public DebeziumPublisher build() {
    if (maxQueueSize != 0 && maxQueueSize <= maxBatchSize) {
      throw new IllegalArgumentException(
          "maxQueueSize ("
              + maxQueueSize
              + ") must exceed maxBatchSize ("
              + maxBatchSize
              + "): Debezium refuses it otherwise");
    }
    Object acks = producerOverrides.get(ProducerConfig.ACKS_CONFIG);
    if (acks != null && !"all".equals(acks.toString()) && !"-1".equals(acks.toString())) {
      throw new IllegalArgumentException(
          "acks=" + acks + " would lose acknowledged records on a broker restart: keep acks=all");
    }
    return new DebeziumPublisher(this);
  }

  boolean postgres() {
    return source instanceof PostgresSource;
  }

  String connectorClass() {
    return postgres() ? DebeziumPublisher.POSTGRES_CONNECTOR_CLASS : connectorClass;
  }

  /** Debezium's engine properties, its offsets and schema history under {@code workDirectory}. */
  Properties engineProperties(Path workDirectory) {
    Properties properties = new Properties();
    properties.setProperty("name", engineName);
    properties.setProperty("connector.class", connectorClass());
    properties.setProperty(
        "offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
    properties.setProperty(
        "offset.storage.file.filename",
        workDirectory.resolve(DebeziumPublisher.OFFSET_FILE).toString());
    properties.setProperty(
        "offset.flush.interval.ms", String.valueOf(offsetFlushInterval.toMillis()));
    properties.setProperty("offset.flush.timeout.ms", "10000");
    properties.setProperty("database.hostname", connectHost != null ? connectHost : source.host());
    properties.setProperty(
        "database.port", String.valueOf(connectHost != null ? connectPort : source.port()));
    properties.setProperty("database.user", source.cdcCredentials().user());
    properties.setProperty("database.password", source.cdcCredentials().revealPassword());
    properties.setProperty("topic.prefix", topicPrefix);
    // a lost source connection restarts the task after this, not Debezium's 10 s
    properties.setProperty(
        "retriable.restart.connector.wait.ms", String.valueOf(retriableRestartWait.toMillis()));
    if (postgres()) {
      postgresProperties(properties);
    } else {
      binlogProperties(properties, workDirectory);
    }
    properties.setProperty("include.schema.changes", "false");
    properties.setProperty("tombstones.on.delete", "true");
    properties.setProperty("snapshot.mode", snapshotMode);
    properties.setProperty("poll.interval.ms", String.valueOf(pollInterval.toMillis()));
    properties.setProperty("max.batch.size", String.valueOf(maxBatchSize));
    properties.setProperty("max.queue.size", String.valueOf(maxQueueSize()));
    properties.putAll(connectorOverrides);
    return properties;
  }

  private void binlogProperties(Properties properties, Path workDirectory) {
    properties.setProperty(
        "schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
    properties.setProperty(
        "schema.history.internal.file.filename",
        workDirectory.resolve(DebeziumPublisher.HISTORY_FILE).toString());
    properties.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
    properties.setProperty("schema.history.internal.store.only.captured.databases.ddl", "true");
    properties.setProperty("database.server.id", String.valueOf(serverId));
    properties.setProperty("database.include.list", source.database());
    properties.setProperty("table.include.list", source.database() + "." + table);
    // A reset binlog connection ends without an error: only the client's keep-alive thread
    // notices, after Debezium's 60 s interval (the connector stalled 120 s after a network
    // partition reset it, found by network-partition:reset). The direct pipeline uses 5 s too.
    properties.setProperty("connect.keep.alive", "true");
    properties.setProperty("connect.keep.alive.interval.ms", Long.toString(KEEP_ALIVE_INTERVAL_MS));
  }

  /**
   * PostgreSQL: {@code pgoutput} through the table's publication (created with the table by its
   * owner; the capture role may create none), from the publisher's own slot, kept across restarts.
   * The slot's confirmed position is not advanced ({@code lsn.flush.mode=manual}): PostgreSQL
   * cannot send a change again once the slot confirmed it, so a rewound offset file could not
   * replay anything; the slot holds the run's WAL instead, until the pipeline drops it. The
   * transaction block gives each change its order inside its transaction.
   */
  private void postgresProperties(Properties properties) {
    properties.setProperty("database.dbname", source.database());
    properties.setProperty("plugin.name", "pgoutput");
    properties.setProperty("slot.name", slotName);
    properties.setProperty("slot.drop.on.stop", "false");
    properties.setProperty("lsn.flush.mode", "manual");
    properties.setProperty("publication.name", PostgresOrdersTable.publicationOf(table));
    properties.setProperty("publication.autocreate.mode", "disabled");
    properties.setProperty("schema.include.list", PostgresSource.SCHEMA);
    properties.setProperty("table.include.list", PostgresSource.SCHEMA + "." + table);
    properties.setProperty("provide.transaction.metadata", "true");
  }

  /** The Kafka producer's properties. */
  Map<String, Object> producerProperties() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ProducerConfig.CLIENT_ID_CONFIG, "srl-publisher-" + topicPrefix);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, (int) producerLinger.toMillis());
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    properties.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100);
    properties.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 50);
    properties.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    unacknowledged.configure(properties);
    properties.putAll(producerOverrides);
    return properties;
  }

  int maxQueueSize() {
    return maxQueueSize != 0 ? maxQueueSize : Math.max(8192, 4 * maxBatchSize);
  }

  private static Duration positive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + duration);
    }
    return duration;
  }
}
