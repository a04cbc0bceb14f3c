package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.StopEngineException;
import io.debezium.engine.format.ChangeEventFormat;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.postgres.PostgresSource;
import io.reliabilitylab.spi.data.SourcePosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
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
  private static final Duration CLOSE_RETRY = Duration.ofMillis(50);

  private final String bootstrapServers;
  private final Path workDirectory;
  private final String topic;
  private final String capturedTopic;
  private final Properties engineProperties;
  private final Map<String, Object> producerProperties;
  private final Unacknowledged unacknowledged;
  private final @Nullable PublishListener listener;
  private final Duration startTimeout;
  private final Duration stopTimeout;

  /** Held while a batch is published and marked, so that a stop can wait for it. */
  private final @Nullable String replicationSlot;

  private final ReentrantLock batchLock = new ReentrantLock();

  private final Object progress = new Object();
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong tombstones = new AtomicLong();
  private final AtomicLong corrupted = new AtomicLong();
  private final AtomicLong replayed = new AtomicLong();
  private final AtomicReference<@Nullable Poison> poison = new AtomicReference<>();
  private volatile @Nullable SourcePosition lastPosition;
  private volatile @Nullable SourcePosition highestPosition;
  private volatile @Nullable SourcePosition rewindMark;
  private final AtomicReference<ConnectorState> state = new AtomicReference<>(ConnectorState.NEW);
  private volatile @Nullable Throwable failure;
  private volatile @Nullable Run run;
  private @Nullable KafkaProducer<byte[], byte[]> producer;
  private int generation;
  private int snapshotsTaken;

  DebeziumPublisher(DebeziumPublisherBuilder builder) {
    this.bootstrapServers = builder.bootstrapServers;
    this.workDirectory = builder.workDirectory.toAbsolutePath().normalize();
    this.capturedTopic = capturedTopic(builder.source, builder.topicPrefix, builder.table);
    this.replicationSlot = builder.postgres() ? builder.slotName : null;
    this.topic = builder.topic != null ? builder.topic : capturedTopic;
    this.listener = builder.listener;
    this.startTimeout = builder.startTimeout;
    this.stopTimeout = builder.stopTimeout;
    this.engineProperties = builder.engineProperties(workDirectory);
    this.producerProperties = builder.producerProperties();
    this.unacknowledged = builder.unacknowledged();
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
    Run previous = run;
    if (previous != null) {
      awaitEnded(previous);
    }
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    try {
      Files.createDirectories(workDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the publisher's work directory " + workDirectory, e);
    }
    ensureProducer();
    failure = null;
    state.set(ConnectorState.STARTING);
    Run next = new Run(++generation);
    run = next;
    next.thread.start();
    try {
      next.taskStarted.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      awaitEnded(next);
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
    Run current = run;
    if (current == null || current.done.getCount() == 0) {
      if (current != null) {
        awaitEnded(current);
      }
      return transition("stop", startedAt, Duration.ZERO);
    }
    state.set(ConnectorState.STOPPING);
    current.draining = true;
    // The batch in flight, if any, finishes: acknowledged and marked processed.
    batchLock.lock();
    batchLock.unlock();
    closeEngine(current);
    awaitEnded(current);
    state.compareAndSet(ConnectorState.STOPPING, ConnectorState.STOPPED);
    notifyProgress();
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info(
        "Debezium publisher stopped ({} ms), {} records published", took.toMillis(), published);
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
    Poison armed = new Poison(k, Instant.now());
    if (!poison.compareAndSet(null, armed)) {
      throw new IllegalStateException(
          "A poison is armed already; await its evidence before arming another");
    }
    LOG.info("Poison armed: change record {} from now will be corrupted", k);
    return armed.evidence;
  }

  /**
   * Copies the offset file as it is now, for {@link #restartFrom(OffsetSnapshot)}. The file trails
   * the published records by up to the offset flush interval.
   *
   * @throws IllegalStateException if no offsets were flushed yet
   */
  public synchronized OffsetSnapshot snapshotOffsets() {
    Path offsets = offsetFile();
    if (!Files.isRegularFile(offsets)) {
      throw new IllegalStateException(
          "No offsets were flushed to "
              + offsets
              + " yet: start the publisher and let it publish (offsets flush every "
              + engineProperties.getProperty("offset.flush.interval.ms")
              + " ms)");
    }
    long publishedNow = published.get();
    SourcePosition positionNow = lastPosition;
    Instant takenAt = Instant.now();
    try {
      Path directory = Files.createDirectories(workDirectory.resolve(SNAPSHOT_DIRECTORY));
      Path copy = directory.resolve(String.format("offsets-%03d.dat", ++snapshotsTaken));
      Map<String, String> content = OffsetFiles.copy(offsets, copy);
      LOG.info("Offsets copied to {}: {}", copy, content.values());
      return new OffsetSnapshot(copy, takenAt, content, publishedNow, positionNow);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy the offset file " + offsets, e);
    }
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
    SourcePosition mark = highestPosition;
    long before = published.get();
    PublisherTransition stopped = stop();
    try {
      Path partial = offsetFile().resolveSibling(OFFSET_FILE + ".rewind");
      Files.copy(snapshot.copy(), partial, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          partial,
          offsetFile(),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot replace the offset file " + offsetFile() + " with " + snapshot.copy(), e);
    }
    rewindMark = mark;
    replayed.set(0);
    LOG.info(
        "Restarting from the offsets of {} (highest position published: {})",
        snapshot.takenAt(),
        mark);
    PublisherTransition started = start();
    return new RewindEvidence(snapshot, mark, before, stopped, started);
  }

  /** The counters now. */
  public PublisherStats stats() {
    return new PublisherStats(
        state.get(),
        published.get(),
        tombstones.get(),
        corrupted.get(),
        replayed.get(),
        lastPosition);
  }

  /** Records published and acknowledged so far, tombstones included. */
  public long publishedCount() {
    return published.get();
  }

  /** Tombstones published so far. */
  public long tombstoneCount() {
    return tombstones.get();
  }

  /**
   * Changes (not tombstones) published since the last {@link #restartFrom rewind} whose source
   * position is at or below the highest one published before it; 0 before any rewind.
   */
  public long replayedCount() {
    return replayed.get();
  }

  /** The source position of the last change published, if any. */
  public Optional<SourcePosition> lastPosition() {
    return Optional.ofNullable(lastPosition);
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
    return workDirectory.resolve(OFFSET_FILE);
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
    producerProperties.forEach((name, value) -> settings.put("producer." + name, describe(value)));
    settings.put("publisher.unacknowledged", unacknowledged.description());
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
      Poison armed = poison.getAndSet(null);
      if (armed != null) {
        armed.evidence.completeExceptionally(
            new IllegalStateException("The publisher was closed before the poison fired"));
      }
      KafkaProducer<byte[], byte[]> current = producer;
      producer = null;
      if (current != null) {
        current.close(Duration.ofSeconds(10));
      }
      state.set(ConnectorState.CLOSED);
      notifyProgress();
    }
  }

  @Override
  public String toString() {
    return "DebeziumPublisher[" + capturedTopic + " -> " + topic + ", " + state.get() + "]";
  }

  // --- the engine's side -------------------------------------------------------------------

  /**
   * Publishes one batch in order and marks each record processed once acknowledged. Runs on the
   * engine's thread.
   */
  private void handleBatch(
      Run owner,
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
      Poison fired = null;
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
        Poison armed = value == null ? null : poison.get();
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
        if (fired != null && poison.compareAndSet(fired, null)) {
          fired.evidence.completeExceptionally(e);
        }
        throw e;
      } finally {
        notifyProgress();
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
    published.incrementAndGet();
    if (encoded.tombstone()) {
      tombstones.incrementAndGet();
    } else {
      SourcePosition mark = rewindMark;
      if (mark != null && position.compareTo(mark) <= 0) {
        replayed.incrementAndGet();
      }
      lastPosition = position;
      SourcePosition highest = highestPosition;
      if (highest == null || position.compareTo(highest) > 0) {
        highestPosition = position;
      }
    }
    byte[] poisonValue = out.poisonValue;
    if (poisonValue != null) {
      corrupted.incrementAndGet();
      Poison fired = Objects.requireNonNull(poison.get());
      fired.published =
          new PoisonPublished(
              metadata.topic(),
              metadata.partition(),
              metadata.offset(),
              metadata.timestamp(),
              encoded.orderId(),
              Objects.requireNonNull(encoded.op()),
              position,
              ChangeEncoder.sha256Hex(poisonValue),
              poisonValue.length,
              Instant.ofEpochMilli(publishedAt));
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

  private void onEngineEnded(
      Run ended, boolean success, String message, @Nullable Throwable error) {
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
      Poison armed = poison.get();
      if (armed != null && armed.owner == ended && armed.published != null) {
        poison.set(null);
        armed.evidence.complete(armed.evidence(Instant.now(), state.get()));
      }
    } finally {
      ended.done.countDown();
      notifyProgress();
    }
  }

  private void closeEngine(Run current) {
    long deadline = System.nanoTime() + stopTimeout.toNanos();
    while (true) {
      try {
        current.engine.close();
        return;
      } catch (IllegalStateException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("already")) {
          return; // stopping on its own (a poison) or stopped
        }
        // "Cannot stop engine while tasks are starting": try again in a moment.
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "The Debezium engine could not be stopped within " + stopTimeout.toMillis() + " ms",
              e);
        }
        sleepQuietly(CLOSE_RETRY);
      } catch (IOException e) {
        LOG.warn("Closing the Debezium engine: {}", e.toString());
        return;
      }
    }
  }

  private void awaitEnded(Run ended) {
    try {
      if (!ended.done.await(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "The Debezium engine did not end within " + stopTimeout.toMillis() + " ms");
      }
      ended.thread.join(stopTimeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the engine to end", e);
    }
  }

  /** The engine cannot wait for itself to end: a listener must not stop or start it. */
  private void requireNotEngineThread(String call) {
    Run current = run;
    if (current != null && Thread.currentThread() == current.thread) {
      throw new IllegalStateException(
          call
              + " was called on the engine's thread (from a PublishListener?): it would wait for"
              + " itself; call it from another thread");
    }
  }

  private void ensureProducer() {
    if (producer == null) {
      producer = new KafkaProducer<>(producerProperties);
    }
  }

  private PublisherTransition transition(String action, Instant startedAt, Duration took) {
    return new PublisherTransition(
        action, startedAt, took, state.get(), published.get(), lastPosition);
  }

  private void notifyProgress() {
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  private static void sleepQuietly(Duration duration) {
    try {
      TimeUnit.MILLISECONDS.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while stopping the engine", e);
    }
  }

  private static String describe(Object value) {
    return value instanceof Class<?> type ? type.getName() : String.valueOf(value);
  }

  /** One engine lifetime: from a start to the end of its run. */
  private final class Run {
    final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    final Thread thread;
    final CompletableFuture<Void> taskStarted = new CompletableFuture<>();
    final CountDownLatch done = new CountDownLatch(1);
    final ChangeEncoder encoder = new ChangeEncoder();

    /** Set by a stop or a poison: later batches are neither published nor marked. */
    volatile boolean draining;

    /** The position of the last change seen (engine thread only), for the tombstone after it. */
    @Nullable SourcePosition lastChange;

    Run(int generation) {
      this.engine =
          DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
              .using(engineProperties)
              .using(
                  new DebeziumEngine.ConnectorCallback() {
                    @Override
                    public void taskStarted() {
                      taskStarted.complete(null);
                    }
                  })
              .using(
                  (boolean success, String message, @Nullable Throwable error) ->
                      onEngineEnded(this, success, message, error))
              .notifying(
                  (List<RecordChangeEvent<SourceRecord>> records,
                      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) ->
                      handleBatch(this, records, committer))
              .build();
      this.thread = new Thread(engine, "srl-debezium-engine-" + generation);
      thread.setDaemon(true);
    }
  }

  /** A record sent (or skipped: not a change of the captured table) with its acknowledgement. */
  private record Outgoing(
      RecordChangeEvent<SourceRecord> event,
      ChangeEncoder.@Nullable Encoded encoded,
      @Nullable SourcePosition position,
      @Nullable Future<RecordMetadata> ack,
      byte @Nullable [] poisonValue) {}

  /** What the evidence needs about a published poison record. */
  private record PoisonPublished(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      long orderId,
      io.reliabilitylab.spi.data.ChangeOp op,
      SourcePosition position,
      String sha256,
      int length,
      Instant publishedAt) {}

  /** An armed poison: counts change records down on the engine's thread. */
  private static final class Poison {
    final long k;
    final Instant armedAt;
    final CompletableFuture<PoisonEvidence> evidence = new CompletableFuture<>();
    long remaining;
    volatile @Nullable Run owner;
    volatile @Nullable PoisonPublished published;
    volatile int withheld;

    Poison(long k, Instant armedAt) {
      this.k = k;
      this.armedAt = armedAt;
      this.remaining = k;
    }

    /** Counts one change record; true for the one to corrupt. */
    boolean countDown() {
      return remaining > 0 && --remaining == 0;
    }

    PoisonEvidence evidence(Instant stoppedAt, ConnectorState stateAfter) {
      PoisonPublished fired = Objects.requireNonNull(published);
      return new PoisonEvidence(
          fired.topic(),
          fired.partition(),
          fired.offset(),
          fired.timestampMs(),
          fired.orderId(),
          fired.op(),
          fired.position(),
          fired.sha256(),
          fired.length(),
          k,
          armedAt,
          fired.publishedAt(),
          withheld,
          stoppedAt,
          stateAfter);
    }
  }
}
