package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.process.LabProcess;
import io.reliabilitylab.process.LabProcesses;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lab's single-node KRaft broker (the settings of {@link EmbeddedKafkaBroker}) run as its own
 * JVM, {@code <java.home>/bin/java -cp <the lab's class path> kafka.Kafka server.properties}, so
 * that it can be {@linkplain #kill() killed with SIGKILL} and {@linkplain #start() started} again
 * on the same ports and log directory: the broker then recovers a log it did not shut down cleanly.
 * The log directory is formatted in the lab's JVM before the first start; the process's output goes
 * to {@code broker.log} under the work directory, and the process is registered with {@link
 * LabProcesses} (pid file, stopped on the lab's exit, killed by a later run if the lab was killed).
 *
 * <p>After a SIGKILL the restarted node's controller refuses its broker's registration ({@code
 * DUPLICATE_BROKER_REGISTRATION}) until the killed incarnation's session times out ({@code
 * broker.session.timeout.ms}, 9 s), so a start after a kill takes that much longer than one after a
 * clean stop.
 *
 * <pre>{@code
 * try (KafkaBrokerProcess broker = KafkaBrokerProcess.builder(workDir).build()) {
 *   broker.start();
 *   BrokerKill crash = broker.kill();          // SIGKILL: exit status 137
 *   broker.start();                            // same address, same data, unclean recovery
 *   List<String> recovery = broker.recoveryLog();
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class KafkaBrokerProcess implements LabKafkaBroker {

  /** The role the process is registered under, and the marker on its command line. */
  public static final String ROLE = "kafka-broker";

  private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokerProcess.class);
  private static final int START_ATTEMPTS = 3;
  private static final int RECOVERY_LINES = 30;
  // What Kafka logs while loading a log directory at start (LogManager, LogLoader, UnifiedLog).
  private static final List<String> RECOVERY_MARKERS =
      List.of(
          "clean shutdown file",
          "Recovering unflushed segment",
          "rebuilding index",
          "Producer state recovery");

  private final KraftNode node;
  private final Path processLog;
  private final Path pidDirectory;
  private final String maxHeap;
  private @Nullable LabProcess process;
  private long logOffsetAtStart;
  private boolean startedOnce;
  private boolean closed;

  private KafkaBrokerProcess(Builder builder) {
    this.node =
        new KraftNode(
            builder.workDirectory,
            builder.overrides,
            builder.defaultPartitions,
            builder.readyTimeout,
            0,
            0);
    this.processLog = node.workDirectory().resolve("broker.log");
    this.pidDirectory = builder.pidDirectory != null ? builder.pidDirectory : node.workDirectory();
    this.maxHeap = builder.maxHeap;
  }

  /** A builder for a broker process whose files live under {@code workDirectory}. */
  public static Builder builder(Path workDirectory) {
    return new Builder(workDirectory);
  }

  /**
   * Starts the broker process: the first time on free ports and a freshly formatted log directory,
   * later on the same ports and data (after {@link #stop()} or {@link #kill()}). Returns once the
   * broker answers an admin request.
   *
   * @throws IllegalStateException if it runs or was closed, or cannot start (with its log's tail)
   */
  @Override
  public synchronized BrokerTransition start() {
    if (closed) {
      throw new IllegalStateException("This broker was closed: build a new one to start again");
    }
    if (process != null && process.alive()) {
      throw new IllegalStateException(
          "The broker process on " + bootstrapServers() + " is already running: stop() it first");
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
        "Kafka broker process {} on {} as pid {} ({} ms, log {})",
        action.equals("restart") ? "restarted" : "started",
        bootstrapServers(),
        pid(),
        took.toMillis(),
        processLog);
    return new BrokerTransition(action, startedAt, took, bootstrapServers(), node.clusterId());
  }

  /**
   * Stops the broker process with SIGTERM: Kafka's shutdown hook flushes the logs and writes its
   * clean-shutdown marker (SIGKILL after a grace period if it hangs).
   *
   * @throws IllegalStateException if it is not running
   */
  @Override
  public synchronized BrokerTransition stop() {
    LabProcess running = requireRunning("stop");
    Instant startedAt = Instant.now();
    long began = System.nanoTime();
    running.close();
    process = null;
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    LOG.info("Kafka broker process on {} stopped ({} ms)", bootstrapServers(), took.toMillis());
    return new BrokerTransition("stop", startedAt, took, bootstrapServers(), node.clusterId());
  }

  /**
   * Kills the broker process with SIGKILL and waits until it is gone: no shutdown hook runs, no log
   * is flushed, in-flight requests are cut off. What it wrote to the page cache stays.
   *
   * @throws IllegalStateException if it is not running
   */
  public synchronized BrokerKill kill() throws InterruptedException {
    LabProcess running = requireRunning("kill");
    long pid = running.pid();
    Instant killedAt = Instant.now();
    int status = running.kill();
    process = null;
    return new BrokerKill(pid, status, killedAt);
  }

  /**
   * The running broker process's id.
   *
   * @throws IllegalStateException if it is not running
   */
  public synchronized long pid() {
    return requireRunning("report the pid of").pid();
  }

  /** Whether the broker process runs (started and not stopped, killed or closed). */
  public synchronized boolean isRunning() {
    return process != null && process.alive();
  }

  /**
   * What the broker logged during its latest start about loading its log directory: whether it
   * found the clean-shutdown file, which segments it recovered, which indexes it rebuilt. At most
   * {@value #RECOVERY_LINES} lines, oldest first; empty if its log holds none.
   */
  public synchronized List<String> recoveryLog() {
    if (!Files.exists(processLog)) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    for (String line : readLogFrom(logOffsetAtStart).split("\n", -1)) {
      if (RECOVERY_MARKERS.stream().anyMatch(line::contains) && lines.size() < RECOVERY_LINES) {
        lines.add(line.strip());
      }
    }
    return List.copyOf(lines);
  }

  /** Stops the broker process if it runs (cleanly); the work directory and its data stay. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LabProcess running = process;
    process = null;
    if (running != null) {
      running.close();
    }
  }

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

  @Override
  public Path logDirectory() {
    return node.logDirectory();
  }

  /** The file the process's stdout and stderr are appended to, across restarts. */
  public Path processLog() {
    return processLog;
  }

  @Override
  public String describe() {
    return "KRaft broker as its own process (kafka.Kafka, "
        + maxHeap
        + " heap), log directory "
        + node.logDirectory()
        + ", output in "
        + processLog;
  }

  @Override
  public synchronized String toString() {
    return "KafkaBrokerProcess["
        + (startedOnce ? node.bootstrapServers() : "not started")
        + (process != null ? ", pid " + process.pid() : ", not running")
        + ", "
        + node.logDirectory()
        + "]";
  }

  private void firstLaunch() {
    RuntimeException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      node.pickPorts();
      try {
        node.format("KafkaBrokerProcess");
        writeLoggingConfig();
        launch();
        return;
      } catch (RuntimeException e) {
        last = e;
        // Another process may have taken a free port between our probe and the broker's bind.
        if (!KraftNode.isBindFailure(e)) {
          break;
        }
        LOG.warn("A port was taken before the broker process bound it; retrying on other ports");
      }
    }
    throw Objects.requireNonNull(last);
  }

  private void launch() {
    LabProcess started;
    try {
      logOffsetAtStart = Files.exists(processLog) ? Files.size(processLog) : 0;
      started = LabProcesses.start(ROLE, command(), processLog, pidDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot start the Kafka broker process (" + e.getMessage() + ")", e);
    }
    try {
      node.awaitReady(
          () ->
              started.alive()
                  ? null
                  : "the broker process (pid "
                      + started.pid()
                      + ") exited with status "
                      + started.exitCode().orElse(-1)
                      + " before it answered");
    } catch (RuntimeException e) {
      started.close();
      String tail = tail(readLogFrom(logOffsetAtStart), 15);
      throw new IllegalStateException(
          "Could not start the Kafka broker process on "
              + node.bootstrapServers()
              + " (controller port "
              + node.controllerPort()
              + ", log directory "
              + node.logDirectory()
              + "): "
              + e.getMessage()
              + ". The end of "
              + processLog
              + ":\n"
              + tail,
          e);
    }
    process = started;
  }

  private ProcessBuilder command() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms64m");
    command.add("-Xmx" + maxHeap);
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.awt.headless=true");
    command.add("-Dsrl.role=" + ROLE);
    // The lab's class path carries a logging binding; the broker logs to its own output.
    command.add("-Dlogback.configurationFile=" + loggingConfig());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("kafka.Kafka");
    command.add(node.configFile().toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.directory(node.workDirectory().toFile());
    return builder;
  }

  private Path loggingConfig() {
    return node.workDirectory().resolve("broker-logback.xml");
  }

  private void writeLoggingConfig() {
    String xml =
        """
        <configuration>
          <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
            <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
          </appender>
          <logger name="org.apache.kafka.clients.NetworkClient" level="ERROR"/>
          <root level="INFO"><appender-ref ref="OUT"/></root>
        </configuration>
        """;
    try {
      Files.writeString(loggingConfig(), xml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + loggingConfig(), e);
    }
  }

  private String readLogFrom(long offset) {
    try (RandomAccessFile file = new RandomAccessFile(processLog.toFile(), "r")) {
      long length = file.length();
      if (offset >= length) {
        return "";
      }
      file.seek(offset);
      byte[] bytes = new byte[(int) Math.min(length - offset, 8L * 1024 * 1024)];
      file.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + processLog + ": " + e.getMessage() + ")";
    }
  }

  private static String tail(String text, int lines) {
    String[] all = text.strip().split("\n");
    int from = Math.max(0, all.length - lines);
    return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
  }

  private LabProcess requireRunning(String what) {
    LabProcess running = process;
    if (running == null || !running.alive()) {
      throw new IllegalStateException(
          "Cannot "
              + what
              + " the broker process: it is not running"
              + (closed ? " (closed)" : startedOnce ? " (stopped or killed)" : " (never started)"));
    }
    return running;
  }

  private void requireStartedOnce() {
    if (!startedOnce) {
      throw new IllegalStateException("The broker has not been started: call start() first");
    }
  }

  /**
   * Settings for a broker process.
   *
   * <pre>{@code
   * KafkaBrokerProcess broker = KafkaBrokerProcess.builder(workDir)
   *     .defaultPartitions(3)
   *     .maxHeap("512m")
   *     .pidDirectory(runDir.resolve("pids"))
   *     .property("log.segment.bytes", "16777216")
   *     .build();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final Path workDirectory;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private int defaultPartitions = EmbeddedKafkaBroker.DEFAULT_PARTITIONS;
    private Duration readyTimeout = Duration.ofSeconds(60);
    private String maxHeap = "512m";
    private @Nullable Path pidDirectory;

    private Builder(Path workDirectory) {
      this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
    }

    /** Partitions of topics created without a count, and of auto-created topics; default 3. */
    public Builder defaultPartitions(int partitions) {
      this.defaultPartitions = KraftNode.checkPartitions(partitions);
      return this;
    }

    /** How long a start waits for the broker to answer; default 60 s (a JVM starts first). */
    public Builder readyTimeout(Duration timeout) {
      this.readyTimeout = KraftNode.checkReadyTimeout(timeout);
      return this;
    }

    /** The broker JVM's {@code -Xmx}, e.g. {@code 512m} (the default). */
    public Builder maxHeap(String size) {
      Objects.requireNonNull(size, "size");
      if (!size.matches("[1-9][0-9]*[kKmMgG]?")) {
        throw new IllegalArgumentException(
            "maxHeap is a size such as 512m or 1g, got '" + size + "'");
      }
      this.maxHeap = size;
      return this;
    }

    /** Where the process's pid file goes; default the work directory. */
    public Builder pidDirectory(Path directory) {
      this.pidDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** One broker setting, overriding the lab's default (as {@link EmbeddedKafkaBroker} takes). */
    public Builder property(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      overrides.put(name, value);
      return this;
    }

    /** The broker process, not started yet: call {@link KafkaBrokerProcess#start()}. */
    public KafkaBrokerProcess build() {
      return new KafkaBrokerProcess(this);
    }
  }
}
