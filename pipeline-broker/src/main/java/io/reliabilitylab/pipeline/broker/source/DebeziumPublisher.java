package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.postgres.PostgresSource;
import io.reliabilitylab.spi.data.SourcePosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code orders} table of a MariaDB, MySQL or PostgreSQL server with Debezium's embedded
 * engine (the MariaDB, MySQL or PostgreSQL connector, offsets and schema history in files; on
 * PostgreSQL {@code pgoutput} from a replication slot of its own) and publishes every change to a
 * Kafka topic, at least once: a batch is published in order, and its records are marked processed,
 * so that their offsets may be flushed, only after the broker acknowledged them. After a restart
 * the engine resumes after the last record marked processed.
 *
 * <p>Wire format: key {@code {"order_id":<long>}} (UTF-8 JSON); value Debezium's JSON envelope
 * without schema, {@code {"before":..,"after":..,"source":{..,"file":..,"pos":..,"row":..,
 * "gtid":..},"op":"r|c|u|d","ts_ms":..}} (on PostgreSQL {@code "source":{..,"lsn":..,"txId":..}}
 * and {@code "transaction":{..,"total_order":..}}); after a delete, a tombstone (null value).
 *
 * <p>The controls the broker faults need: {@link #stop()} and {@link #start()}, {@link
 * #corruptNext(long)} (publish one change with a corrupted value, then stop), {@link
 * #snapshotOffsets()} and {@link #restartFrom(OffsetSnapshot)} (publish the changes since an older
 * offset file again), each returning its evidence.
 *
 * <pre>{@code
 * try (DebeziumPublisher publisher = DebeziumPublisher.builder(source, broker.bootstrapServers(), dir)
 *     .topicPrefix("lab")                    // topic lab.<db>.orders unless topic(...) is set
 *     .pollInterval(Duration.ofMillis(50))
 *     .maxBatchSize(2048)
 *     .offsetFlushInterval(Duration.ofMillis(200))
 *     .producerLinger(Duration.ofMillis(5))
 *     .listener(record -> {})
 *     .build()) {
 *   publisher.start();
 *   CompletableFuture<PoisonEvidence> poison = publisher.corruptNext(3);
 *   PoisonEvidence evidence = poison.get(30, TimeUnit.SECONDS); // the engine has stopped
 *   publisher.start();                                           // resumes after the poison record
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DebeziumPublisher implements AutoCloseable {

  /** The Debezium connector this publisher runs. */
  public static final String CONNECTOR_CLASS = "io.debezium.connector.mariadb.MariaDbConnector";

  /** Debezium's connector for MySQL servers (MySQL 8), chosen for a server that is not MariaDB. */
  public static final String MYSQL_CONNECTOR_CLASS = "io.debezium.connector.mysql.MySqlConnector";

  /** Debezium's connector for PostgreSQL, chosen for a {@link PostgresSource}. */
  public static final String POSTGRES_CONNECTOR_CLASS =
      "io.debezium.connector.postgresql.PostgresConnector";

  /**
   * The Debezium connector for a server, from its version string ({@code SELECT VERSION()}): the
   * MariaDB connector for MariaDB (GTIDs of MariaDB's form, {@code SHOW BINLOG STATUS}), the MySQL
   * connector for anything else. Debezium 3.6's MySQL connector fails on MariaDB, and each reads
   * the other's GTIDs wrongly, so the choice matters.
   */
  public static String connectorFor(String serverVersion) {
    return serverVersion.toLowerCase(java.util.Locale.ROOT).contains("mariadb")
        ? CONNECTOR_CLASS
        : MYSQL_CONNECTOR_CLASS;
  }

  /** Debezium's logical server name and the topic's first part unless told otherwise. */
  public static final String DEFAULT_TOPIC_PREFIX = "lab";

  static final String OFFSET_FILE = "offsets.dat";
  static final String HISTORY_FILE = "schema-history.dat";
  static final String SNAPSHOT_DIRECTORY = "offset-snapshots";

  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisher.class);

  private final String bootstrapServers;
  private final Path workDirectory;
  private final String topic;
  private final String capturedTopic;
  private final Properties engineProperties;
  private final Duration startTimeout;
  private final Duration stopTimeout;
  private final @Nullable String replicationSlot;

  private final Object progress = new Object();
  private final PublishAccounting accounting = new PublishAccounting();
  private final PoisonSlot poison = new PoisonSlot();
  private final AtomicReference<ConnectorState> state = new AtomicReference<>(ConnectorState.NEW);
  private final BatchPublisher batches;
  private final OffsetSnapshots offsetSnapshots;
  private volatile @Nullable Throwable failure;
  private volatile @Nullable EngineRun run;
  private int generation;

  DebeziumPublisher(DebeziumPublisherBuilder builder) {
    this.bootstrapServers = builder.bootstrapServers;
    this.workDirectory = builder.workDirectory.toAbsolutePath().normalize();
    this.capturedTopic = capturedTopic(builder.source, builder.topicPrefix, builder.table);
    this.replicationSlot = builder.postgres() ? builder.slotName : null;
    this.topic = builder.topic != null ? builder.topic : capturedTopic;
    this.startTimeout = builder.startTimeout;
    this.stopTimeout = builder.stopTimeout;
    this.engineProperties = builder.engineProperties(workDirectory);
    this.offsetSnapshots =
        new OffsetSnapshots(
            workDirectory, engineProperties.getProperty("offset.flush.interval.ms"));
    this.batches =
        new BatchPublisher(
            builder, capturedTopic, topic, accounting, poison, state, this::notifyProgress);
  }

  /**
   * A builder for a publisher reading {@code source}, publishing to the cluster at {@code
   * bootstrapServers}, keeping its offsets and schema history under {@code workDirectory}.
   */
  public static DebeziumPublisherBuilder builder(
      CdcSource source, String bootstrapServers, Path workDirectory) {
    return new DebeziumPublisherBuilder(source, bootstrapServers, workDirectory);
  }

  /**
   * The topic Debezium gives the changes of {@code table}: {@code <prefix>.<database>.<table>} on
   * MySQL/MariaDB, {@code <prefix>.<schema>.<table>} on PostgreSQL.
   */
  public static String capturedTopic(CdcSource source, String prefix, String table) {
    String namespace = source instanceof PostgresSource ? PostgresSource.SCHEMA : source.database();
    return prefix + "." + namespace + "." + table;
  }

  /**
   * Starts the engine: the first time it snapshots the table (unless the snapshot mode says
   * otherwise), later it resumes from the offset file. Returns once the connector task runs.
   *
   * @throws IllegalStateException if it runs already, is closed, or the engine cannot start
   */
  public synchronized PublisherTransition start() {
    requireNotEngineThread("start()");
    if (state.get() == ConnectorState.CLOSED) {
      throw new IllegalStateException("The publisher was closed: build a new one");
    }
    if (state.get().isActive()) {
      throw new IllegalStateException("The publisher is " + state.get() + ": stop() it first");
    }
    EngineRun previous = run;
    if (previous != null) {
      previous.awaitEnded();
    }
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    try {
      Files.createDirectories(workDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the publisher's work directory " + workDirectory, e);
    }
    batches.ensureProducer();
    failure = null;
    state.set(ConnectorState.STARTING);
    EngineRun next =
        new EngineRun(
            ++generation, engineProperties, stopTimeout, batches::publish, this::onEngineEnded);
    run = next;
    next.thread.start();
    try {
      next.taskStarted.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      next.awaitEnded();
      state.set(ConnectorState.FAILED);
      failure = cause;
      throw new IllegalStateException(
          "The Debezium engine did not start: "
              + cause.getMessage()
              + ". Check the source's address and CDC account, and that the work directory "
              + workDirectory
              + " holds offsets of this source (or none)",
          cause);
    } catch (TimeoutException e) {
      stop();
      state.set(ConnectorState.FAILED);
      failure = e;
      throw new IllegalStateException(
          "The Debezium engine's task did not start within "
              + startTimeout.toMillis()
              + " ms; it was stopped. Is the source reachable?",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting the Debezium engine", e);
    }
    state.compareAndSet(ConnectorState.STARTING, ConnectorState.RUNNING);
    notifyProgress();
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info(
        "Debezium publisher started ({} ms): {} -> {} on {}",
        took.toMillis(),
        capturedTopic,
        topic,
        bootstrapServers);
    return transition("start", startedAt, took);
  }

  /**
   * Stops the engine gracefully: the batch being published is acknowledged and marked, no further
   * change is published, and the offsets are flushed. Stopping a publisher that is not running
   * returns at once.
   */
  public synchronized PublisherTransition stop() {
    requireNotEngineThread("stop()");
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    EngineRun current = run;
    if (current == null || current.done.getCount() == 0) {
      if (current != null) {
        current.awaitEnded();
      }
      return transition("stop", startedAt, Duration.ZERO);
    }
    state.set(ConnectorState.STOPPING);
    current.draining = true;
    // The batch in flight, if any, finishes: acknowledged and marked processed.
    batches.awaitBatchInFlight();
    current.closeEngine();
    current.awaitEnded();
    state.compareAndSet(ConnectorState.STOPPING, ConnectorState.STOPPED);
    notifyProgress();
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info(
        "Debezium publisher stopped ({} ms), {} records published",
        took.toMillis(),
        accounting.published());
    return transition("stop", startedAt, took);
  }

  /** Whether the engine runs (or is starting). */
  public boolean isRunning() {
    return state.get().isActive();
  }

  /** The connector's state. */
  public ConnectorState state() {
    return state.get();
  }

  /** The connector's state for a run record: {@code RUNNING}, {@code STOPPED}, ... */
  public String status() {
    return state.get().name();
  }

  /** Why the engine failed last, if it did (cleared by a successful start). */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Arms a poison: the {@code k}-th change record from now (1 = the next; tombstones not counted)
   * is published with a corrupted value, the two bytes {@code 0xC3 0x28} (invalid UTF-8) followed
   * by the original JSON. Once the broker acknowledged it, the rest of its batch is neither
   * published nor marked processed, and the engine stops with offsets flushed up to the poison
   * record; {@link #start()} resumes with the rest. The future completes when the engine has
   * stopped, with evidence that never holds the payload.
   *
   * @throws IllegalStateException if a poison is armed already
   */
  public CompletableFuture<PoisonEvidence> corruptNext(long k) {
    if (k < 1) {
      throw new IllegalArgumentException(
          "k counts change records from now and starts at 1 (the next one), got " + k);
    }
    if (state.get() == ConnectorState.CLOSED) {
      throw new IllegalStateException("The publisher was closed");
    }
    return poison.arm(k);
  }

  /**
   * Copies the offset file as it is now, for {@link #restartFrom(OffsetSnapshot)}. The file trails
   * the published records by up to the offset flush interval.
   *
   * @throws IllegalStateException if no offsets were flushed yet
   */
  public synchronized OffsetSnapshot snapshotOffsets() {
    return offsetSnapshots.take(accounting);
  }

  /**
   * Stops the engine, replaces the offset file with an older copy and starts again, so that the
   * changes since that copy are published again (duplicate redelivery). From then on {@link
   * #replayedCount()} counts the changes published again at or below the highest position published
   * before.
   */
  public synchronized RewindEvidence restartFrom(OffsetSnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    requireNotEngineThread("restartFrom()");
    if (!Files.isRegularFile(snapshot.copy())) {
      throw new IllegalArgumentException(
          "The offset copy " + snapshot.copy() + " is gone: take a new one with snapshotOffsets()");
    }
    SourcePosition mark = accounting.highestPosition();
    long before = accounting.published();
    PublisherTransition stopped = stop();
    offsetSnapshots.restore(snapshot);
    accounting.rewound(mark);
    LOG.info(
        "Restarting from the offsets of {} (highest position published: {})",
        snapshot.takenAt(),
        mark);
    PublisherTransition started = start();
    return new RewindEvidence(snapshot, mark, before, stopped, started);
  }

  /** The counters now. */
  public PublisherStats stats() {
    return accounting.stats(state.get());
  }

  /** Records published and acknowledged so far, tombstones included. */
  public long publishedCount() {
    return accounting.published();
  }

  /** Tombstones published so far. */
  public long tombstoneCount() {
    return accounting.tombstones();
  }

  /**
   * Changes (not tombstones) published since the last {@link #restartFrom rewind} whose source
   * position is at or below the highest one published before it; 0 before any rewind.
   */
  public long replayedCount() {
    return accounting.replayed();
  }

  /** The source position of the last change published, if any. */
  public Optional<SourcePosition> lastPosition() {
    return Optional.ofNullable(accounting.lastPosition());
  }

  /**
   * Waits until the counters satisfy {@code condition}, e.g. {@code stats -> stats.changes() >=
   * 100}; returns whether they did within {@code timeout}.
   */
  public boolean await(Predicate<PublisherStats> condition, Duration timeout)
      throws InterruptedException {
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(timeout, "timeout");
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (!condition.test(stats())) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(progress, left);
      }
      return true;
    }
  }

  /** The topic it publishes to. */
  public String topic() {
    return topic;
  }

  /** The broker's bootstrap servers. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Debezium's offset file ({@code FileOffsetBackingStore}). */
  public Path offsetFile() {
    return offsetSnapshots.offsetFile();
  }

  /**
   * The replication slot the connector streams from, on PostgreSQL: it outlives the engine's
   * restarts (their resume point) and is the caller's to drop once the publisher is closed.
   */
  public Optional<String> replicationSlot() {
    return Optional.ofNullable(replicationSlot);
  }

  /** Debezium's schema history file ({@code FileSchemaHistory}). */
  public Path historyFile() {
    return workDirectory.resolve(HISTORY_FILE);
  }

  /**
   * The engine's and the producer's settings, the password masked: what a run record shows as the
   * effective configuration (flush interval, batch sizes, acks, linger).
   */
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String name : engineProperties.stringPropertyNames().stream().sorted().toList()) {
      String value = engineProperties.getProperty(name);
      settings.put("debezium." + name, name.contains("password") ? "***" : value);
    }
    settings.putAll(batches.effectiveConfiguration());
    return Collections.unmodifiableMap(settings);
  }

  /** Stops the engine if it runs and closes the producer. Safe to call twice. */
  @Override
  public synchronized void close() {
    if (state.get() == ConnectorState.CLOSED) {
      return;
    }
    try {
      stop();
    } finally {
      poison.cancel();
      batches.closeProducer();
      state.set(ConnectorState.CLOSED);
      notifyProgress();
    }
  }

  @Override
  public String toString() {
    return "DebeziumPublisher[" + capturedTopic + " -> " + topic + ", " + state.get() + "]";
  }

  private void onEngineEnded(
      EngineRun ended, boolean success, String message, @Nullable Throwable error) {
    try {
      if (run == ended) {
        boolean failed = !success && error != null && !ended.draining;
        if (failed) {
          failure = error;
          LOG.error("The Debezium engine failed: {}", message, error);
        }
        ConnectorState ending = failed ? ConnectorState.FAILED : ConnectorState.STOPPED;
        state.getAndUpdate(current -> current == ConnectorState.CLOSED ? current : ending);
      }
      ended.taskStarted.completeExceptionally(
          error != null
              ? error
              : new IllegalStateException("the engine ended before its task started: " + message));
      poison.runEnded(ended, state::get);
    } finally {
      ended.done.countDown();
      notifyProgress();
    }
  }

  /** The engine cannot wait for itself to end: a listener must not stop or start it. */
  private void requireNotEngineThread(String call) {
    EngineRun current = run;
    if (current != null && Thread.currentThread() == current.thread) {
      throw new IllegalStateException(
          call
              + " was called on the engine's thread (from a PublishListener?): it would wait for"
              + " itself; call it from another thread");
    }
  }

  private PublisherTransition transition(String action, Instant startedAt, Duration took) {
    return new PublisherTransition(
        action, startedAt, took, state.get(), accounting.published(), accounting.lastPosition());
  }

  private void notifyProgress() {
    synchronized (progress) {
      progress.notifyAll();
    }
  }
}
