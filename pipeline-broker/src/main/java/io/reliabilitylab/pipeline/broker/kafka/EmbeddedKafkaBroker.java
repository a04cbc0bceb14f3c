package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker (KRaft, broker and controller in one node) running in this JVM, with its log
 * directory under a given work directory, on free loopback ports unless told which. It can be
 * {@linkplain #stop() stopped} and {@linkplain #start() started} again on the same ports and data:
 * clients reconnect on their own and the records written before survive, which is what the
 * broker-restart fault needs.
 *
 * <p>Timeouts are lowered for a lab: replication factors 1, no initial rebalance delay, one
 * partition for the offsets and transaction topics, a short broker heartbeat, so that a stop and
 * start take seconds.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(workDir)
 *     .defaultPartitions(3)
 *     .property("log.retention.hours", "1")   // any broker setting
 *     .start()) {
 *   broker.createTopic("lab.lab.orders");
 *   BrokerTransition stopped = broker.stop();
 *   BrokerTransition restarted = broker.start();  // same address, same data
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedKafkaBroker implements LabKafkaBroker {

  /** The loopback address the broker listens on. */
  public static final String HOST = KraftNode.HOST;

  /** Partitions of a topic created without a count, here and by auto-creation. */
  public static final int DEFAULT_PARTITIONS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
  private static final int START_ATTEMPTS = 3;
  private static final Object EXIT_GUARD = new Object();
  private static int brokersGuarded;

  private final KraftNode node;
  private @Nullable KafkaRaftServer server;
  private boolean startedOnce;
  private boolean closed;

  private EmbeddedKafkaBroker(Builder builder) {
    this.node =
        new KraftNode(
            builder.workDirectory,
            builder.overrides,
            builder.defaultPartitions,
            builder.readyTimeout,
            builder.brokerPort,
            builder.controllerPort);
  }

  /** A builder for a broker whose files live under {@code workDirectory} (created if missing). */
  public static Builder builder(Path workDirectory) {
    return new Builder(workDirectory);
  }

  /**
   * Starts the broker: the first time it formats the log directory (unless an earlier broker left
   * one there) and picks the ports; later, after {@link #stop()}, it starts again on the same ports
   * and data. Returns once the broker answers an admin request.
   *
   * @throws IllegalStateException if it is running or closed, or cannot start (saying why)
   */
  @Override
  public synchronized BrokerTransition start() {
    if (closed) {
      throw new IllegalStateException("This broker was closed: build a new one to start again");
    }
    if (server != null) {
      throw new IllegalStateException(
          "The broker on " + bootstrapServers() + " is already running: stop() it first");
    }
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    String action = startedOnce ? "restart" : "start";
    if (startedOnce) {
      launch();
    } else {
      firstLaunch();
      startedOnce = true;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info(
        "Kafka broker {} on {} ({} ms, log directory {})",
        action.equals("restart") ? "restarted" : "started",
        bootstrapServers(),
        took.toMillis(),
        node.logDirectory());
    return new BrokerTransition(action, startedAt, took, bootstrapServers(), clusterId());
  }

  /**
   * Stops the broker, flushing its logs; {@link #start()} brings it back on the same address and
   * data. Clients keep their connections' state and reconnect when it is back.
   *
   * @throws IllegalStateException if it is not running
   */
  @Override
  public synchronized BrokerTransition stop() {
    KafkaRaftServer running = server;
    if (running == null) {
      throw new IllegalStateException(
          "The broker is not running" + (closed ? " (closed)" : ": start() it first"));
    }
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    shutDown(running);
    server = null;
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info("Kafka broker on {} stopped ({} ms)", bootstrapServers(), took.toMillis());
    return new BrokerTransition("stop", startedAt, took, bootstrapServers(), clusterId());
  }

  /** Stops the broker if it runs; the work directory and its data stay. Safe to call twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    KafkaRaftServer running = server;
    server = null;
    if (running != null) {
      shutDown(running);
    }
    if (startedOnce) {
      releaseExitGuard();
    }
    closed = true;
  }

  @Override
  public String describe() {
    return "embedded KRaft broker in the lab's JVM, log in " + node.logDirectory();
  }

  /** Whether the broker is running (started and not stopped or closed). */
  public synchronized boolean isRunning() {
    return server != null;
  }

  /** {@code 127.0.0.1:<port>}, for clients' {@code bootstrap.servers}. */
  @Override
  public synchronized String bootstrapServers() {
    requireStartedOnce();
    return node.bootstrapServers();
  }

  @Override
  public synchronized java.util.Optional<ProxiedListener> proxiedListener() {
    requireStartedOnce();
    return java.util.Optional.of(node.proxiedListener());
  }

  /** The client port. */
  public synchronized int port() {
    requireStartedOnce();
    return node.brokerPort();
  }

  /** The controller (KRaft quorum) port. */
  public synchronized int controllerPort() {
    requireStartedOnce();
    return node.controllerPort();
  }

  /** The cluster id written when the log directory was formatted. */
  public synchronized String clusterId() {
    requireStartedOnce();
    return node.clusterId();
  }

  /** The broker's log directory (the records and the metadata log). */
  @Override
  public Path logDirectory() {
    return node.logDirectory();
  }

  /** The work directory given to the builder. */
  public Path workDirectory() {
    return node.workDirectory();
  }

  /** Partitions of topics created without a count. */
  public int defaultPartitions() {
    return node.defaultPartitions();
  }

  /** Creates a topic with {@link #defaultPartitions()} partitions; see {@link #createTopic}. */
  public void createTopic(String topic) {
    createTopic(topic, node.defaultPartitions());
  }

  /**
   * Creates a topic with {@code partitions} partitions and replication factor 1, and waits until
   * every partition has a leader. A topic that already exists with that many partitions is fine.
   */
  public void createTopic(String topic, int partitions) {
    try (KafkaTopics topics = topics()) {
      topics.createTopic(topic, partitions);
    }
  }

  @Override
  public KafkaTopics topics() {
    return KafkaTopics.connect(bootstrapServers());
  }

  /**
   * Settings for clients of this broker: {@code bootstrap.servers} and short reconnect back-offs,
   * so that a client finds the broker soon after a restart.
   */
  public Map<String, Object> clientProperties() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    properties.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 50);
    properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
    properties.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 100);
    return properties;
  }

  @Override
  public synchronized String toString() {
    return "EmbeddedKafkaBroker["
        + (startedOnce ? node.bootstrapServers() : "not started")
        + (server != null ? ", running" : ", stopped")
        + ", "
        + node.logDirectory()
        + "]";
  }

  /** The broker settings, the lab's defaults overridden by the builder's properties. */
  Properties brokerProperties() {
    return node.brokerProperties();
  }

  static Map<String, String> defaults(
      int brokerPort, int controllerPort, Path logDirectory, int partitions) {
    return KraftNode.defaults(brokerPort, controllerPort, logDirectory, partitions);
  }

  private void firstLaunch() {
    guardExit();
    RuntimeException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      node.pickPorts();
      try {
        node.format("EmbeddedKafkaBroker");
        launch();
        return;
      } catch (RuntimeException e) {
        last = e;
        // Another process may have taken a free port between our probe and the broker's bind.
        if (node.fixedPorts() || !KraftNode.isBindFailure(e)) {
          break;
        }
        LOG.warn("A port was taken before the broker bound it; retrying on other ports");
      }
    }
    releaseExitGuard();
    throw Objects.requireNonNull(last);
  }

  private void launch() {
    KafkaRaftServer candidate =
        new KafkaRaftServer(KafkaConfig.fromProps(brokerProperties(), false), Time.SYSTEM);
    try {
      candidate.startup();
      node.awaitReady(() -> null);
    } catch (RuntimeException e) {
      shutDownQuietly(candidate);
      throw new IllegalStateException(
          "Could not start the Kafka broker on "
              + node.bootstrapServers()
              + " (controller port "
              + node.controllerPort()
              + ", log directory "
              + node.logDirectory()
              + "): "
              + e.getMessage()
              + ". Check that the ports are free and the directory writable",
          e);
    }
    server = candidate;
  }

  private static void shutDown(KafkaRaftServer running) {
    running.shutdown();
    running.awaitShutdown();
  }

  private static void shutDownQuietly(KafkaRaftServer candidate) {
    try {
      shutDown(candidate);
    } catch (RuntimeException e) {
      LOG.debug("Shutting down a half-started broker: {}", e.toString());
    }
  }

  /**
   * Kafka halts the process on some internal faults; in the lab's JVM that would take the whole run
   * down without a record, so while an embedded broker runs, exit and halt throw instead.
   */
  private static void guardExit() {
    synchronized (EXIT_GUARD) {
      if (brokersGuarded++ == 0) {
        Exit.setExitProcedure(EmbeddedKafkaBroker::refuseExit);
        Exit.setHaltProcedure(EmbeddedKafkaBroker::refuseExit);
      }
    }
  }

  private static void releaseExitGuard() {
    synchronized (EXIT_GUARD) {
      if (brokersGuarded > 0 && --brokersGuarded == 0) {
        Exit.resetExitProcedure();
        Exit.resetHaltProcedure();
      }
    }
  }

  private static void refuseExit(int status, @Nullable String message) {
    LOG.error("The embedded Kafka broker asked to end the JVM ({}): {}", status, message);
    throw new IllegalStateException(
        "The embedded Kafka broker hit a fatal error and asked to exit with status "
            + status
            + ": "
            + message);
  }

  private void requireStartedOnce() {
    if (!startedOnce) {
      throw new IllegalStateException("The broker has not been started: call start() first");
    }
  }

  /**
   * Settings for an embedded broker.
   *
   * <pre>{@code
   * EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(workDir)
   *     .brokerPort(0)                 // 0: a free port (the default)
   *     .controllerPort(0)
   *     .defaultPartitions(3)
   *     .readyTimeout(Duration.ofSeconds(30))
   *     .property("log.segment.bytes", "16777216")
   *     .start();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final Path workDirectory;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private int brokerPort;
    private int controllerPort;
    private int defaultPartitions = DEFAULT_PARTITIONS;
    private Duration readyTimeout = Duration.ofSeconds(30);

    private Builder(Path workDirectory) {
      this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
    }

    /** The client port on {@value #HOST}; 0 (the default) picks a free one. */
    public Builder brokerPort(int port) {
      this.brokerPort = checkPort(port, "brokerPort");
      return this;
    }

    /** The controller port on {@value #HOST}; 0 (the default) picks a free one. */
    public Builder controllerPort(int port) {
      this.controllerPort = checkPort(port, "controllerPort");
      return this;
    }

    /** Partitions of topics created without a count, and of auto-created topics; default 3. */
    public Builder defaultPartitions(int partitions) {
      this.defaultPartitions = KraftNode.checkPartitions(partitions);
      return this;
    }

    /** How long a start waits for the broker to answer; default 30 s. */
    public Builder readyTimeout(Duration timeout) {
      this.readyTimeout = KraftNode.checkReadyTimeout(timeout);
      return this;
    }

    /**
     * One broker setting, overriding the lab's default (e.g. {@code log.segment.bytes}). The
     * listeners, {@code node.id} and {@code log.dirs} follow from the ports and work directory.
     */
    public Builder property(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      overrides.put(name, value);
      return this;
    }

    /** The broker, not started yet: call {@link EmbeddedKafkaBroker#start()}. */
    public EmbeddedKafkaBroker build() {
      if ((brokerPort == 0) != (controllerPort == 0)) {
        throw new IllegalArgumentException(
            "Give both brokerPort and controllerPort, or neither (then free ports are picked);"
                + " got brokerPort="
                + brokerPort
                + ", controllerPort="
                + controllerPort);
      }
      if (brokerPort != 0 && brokerPort == controllerPort) {
        throw new IllegalArgumentException(
            "brokerPort and controllerPort must differ, both are " + brokerPort);
      }
      return new EmbeddedKafkaBroker(this);
    }

    /** Builds and starts the broker. */
    public EmbeddedKafkaBroker start() {
      EmbeddedKafkaBroker broker = build();
      broker.start();
      return broker;
    }

    private static int checkPort(int port, String name) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException(
            name + " " + port + " is out of range: use 1 to 65535, or 0 for a free port");
      }
      return port;
    }
  }
}
