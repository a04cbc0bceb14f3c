package io.reliabilitylab.pipeline.broker.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every lab broker shares, in this JVM or as its own process: the single-node KRaft settings
 * lowered for a lab, the ports (free ones picked once, then kept across restarts), the formatted
 * log directory and {@code server.properties} under the work directory, and the readiness check.
 */
final class KraftNode {

  static final String HOST = "127.0.0.1";
  static final int NODE_ID = 1;

  private static final Logger LOG = LoggerFactory.getLogger(KraftNode.class);
  private static final Duration READY_ATTEMPT = Duration.ofSeconds(2);

  private final Path workDirectory;
  private final Path logDirectory;
  private final Path configFile;
  private final Map<String, String> overrides;
  private final int defaultPartitions;
  private final Duration readyTimeout;
  private final boolean fixedPorts;
  private int brokerPort;
  private int controllerPort;
  // the listener a lab proxy forwards to, and the port the broker advertises for it (the proxy's)
  private int proxiedPort;
  private int proxiedAdvertisedPort;
  private @Nullable String clusterId;

  KraftNode(
      Path workDirectory,
      Map<String, String> overrides,
      int defaultPartitions,
      Duration readyTimeout,
      int brokerPort,
      int controllerPort) {
    this.workDirectory = workDirectory.toAbsolutePath().normalize();
    this.logDirectory = this.workDirectory.resolve("kafka-logs");
    this.configFile = this.workDirectory.resolve("server.properties");
    this.overrides = Map.copyOf(overrides);
    this.defaultPartitions = checkPartitions(defaultPartitions);
    this.readyTimeout = checkReadyTimeout(readyTimeout);
    this.fixedPorts = brokerPort != 0;
    this.brokerPort = brokerPort;
    this.controllerPort = controllerPort;
  }

  Path workDirectory() {
    return workDirectory;
  }

  Path logDirectory() {
    return logDirectory;
  }

  Path configFile() {
    return configFile;
  }

  int defaultPartitions() {
    return defaultPartitions;
  }

  Duration readyTimeout() {
    return readyTimeout;
  }

  boolean fixedPorts() {
    return fixedPorts;
  }

  int brokerPort() {
    return brokerPort;
  }

  int controllerPort() {
    return controllerPort;
  }

  String bootstrapServers() {
    return HOST + ":" + brokerPort;
  }

  String clusterId() {
    return Objects.requireNonNull(clusterId, "the log directory is not formatted yet");
  }

  /**
   * The listener for clients that go through a lab proxy ({@link LabKafkaBroker.ProxiedListener}).
   */
  LabKafkaBroker.ProxiedListener proxiedListener() {
    return new LabKafkaBroker.ProxiedListener(HOST, proxiedPort, proxiedAdvertisedPort);
  }

  /**
   * Picks distinct free loopback ports for the client and controller listeners, unless they were
   * given, and for the proxied listener and its advertised port, once.
   */
  void pickPorts() {
    java.util.Set<Integer> taken = new java.util.HashSet<>();
    if (!fixedPorts) {
      brokerPort = distinctFreePort(taken);
      controllerPort = distinctFreePort(taken);
    }
    taken.add(brokerPort);
    taken.add(controllerPort);
    if (proxiedPort == 0) {
      proxiedPort = distinctFreePort(taken);
      proxiedAdvertisedPort = distinctFreePort(taken);
    }
  }

  private static int distinctFreePort(java.util.Set<Integer> taken) {
    int port = freePort();
    while (!taken.add(port)) {
      port = freePort();
    }
    return port;
  }

  /** The broker settings, the lab's defaults overridden by the caller's properties. */
  Properties brokerProperties() {
    Properties properties = new Properties();
    properties.putAll(defaults(brokerPort, controllerPort, logDirectory, defaultPartitions));
    if (proxiedPort != 0) {
      // once the ports are picked (the broker starts)
      properties.putAll(proxiedListenerSettings(brokerPort, controllerPort, proxiedListener()));
    }
    properties.putAll(overrides);
    return properties;
  }

  /**
   * A third listener, {@code PROXIED}, for clients that reach the broker through a lab proxy: it
   * advertises the proxy's port, so that clients reconnecting after metadata stay behind the proxy
   * (the {@code PLAINTEXT} listener advertises itself, and clients on it never see the proxy).
   */
  static Map<String, String> proxiedListenerSettings(
      int brokerPort, int controllerPort, LabKafkaBroker.ProxiedListener proxied) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(
        "listeners",
        "PLAINTEXT://"
            + HOST
            + ":"
            + brokerPort
            + ",CONTROLLER://"
            + HOST
            + ":"
            + controllerPort
            + ",PROXIED://"
            + HOST
            + ":"
            + proxied.brokerPort());
    settings.put(
        "advertised.listeners",
        "PLAINTEXT://" + HOST + ":" + brokerPort + ",PROXIED://" + proxied.bootstrapServers());
    settings.put(
        "listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,PROXIED:PLAINTEXT");
    return settings;
  }

  static Map<String, String> defaults(
      int brokerPort, int controllerPort, Path logDirectory, int partitions) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("process.roles", "broker,controller");
    settings.put("node.id", String.valueOf(NODE_ID));
    settings.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
    settings.put(
        "listeners",
        "PLAINTEXT://" + HOST + ":" + brokerPort + ",CONTROLLER://" + HOST + ":" + controllerPort);
    settings.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + brokerPort);
    settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    settings.put("controller.listener.names", "CONTROLLER");
    settings.put("inter.broker.listener.name", "PLAINTEXT");
    settings.put("log.dirs", logDirectory.toString());
    settings.put("num.partitions", String.valueOf(partitions));
    settings.put("default.replication.factor", "1");
    settings.put("min.insync.replicas", "1");
    settings.put("offsets.topic.replication.factor", "1");
    settings.put("offsets.topic.num.partitions", "1");
    settings.put("transaction.state.log.replication.factor", "1");
    settings.put("transaction.state.log.min.isr", "1");
    settings.put("transaction.state.log.num.partitions", "1");
    settings.put("share.coordinator.state.topic.replication.factor", "1");
    settings.put("share.coordinator.state.topic.min.isr", "1");
    settings.put("group.initial.rebalance.delay.ms", "0");
    settings.put("auto.create.topics.enable", "true");
    // A lab broker: few threads, a small cleaner buffer (the default takes 128 MiB of heap).
    settings.put("num.network.threads", "2");
    settings.put("num.io.threads", "4");
    settings.put("background.threads", "2");
    settings.put("num.recovery.threads.per.data.dir", "1");
    settings.put("log.cleaner.threads", "1");
    settings.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
    // Restarts in seconds: the broker re-registers and is unfenced after a heartbeat or two. The
    // session timeout stays at Kafka's 9 s: shorter ones fenced the broker on a loaded machine.
    settings.put("broker.heartbeat.interval.ms", "250");
    settings.put("controller.quorum.election.timeout.ms", "500");
    settings.put("controller.quorum.fetch.timeout.ms", "1000");
    return settings;
  }

  /**
   * Writes {@code server.properties} and formats the log directory, unless an earlier broker
   * formatted it already (then its cluster id is kept).
   */
  void format(String writtenBy) {
    try {
      Files.createDirectories(workDirectory);
      Path meta = logDirectory.resolve("meta.properties");
      if (Files.exists(meta)) {
        clusterId = readClusterId(meta);
        writeConfig(writtenBy);
        LOG.info(
            "Reusing the formatted Kafka log directory {} (cluster {})", logDirectory, clusterId);
        return;
      }
      clusterId = Uuid.randomUuid().toString();
      writeConfig(writtenBy);
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      int status;
      try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
        status =
            StorageTool.execute(
                new String[] {"format", "-t", clusterId, "-c", configFile.toString()}, print);
      }
      if (status != 0) {
        throw new IllegalStateException(
            "Formatting the Kafka log directory "
                + logDirectory
                + " failed ("
                + output.toString(StandardCharsets.UTF_8).trim()
                + "): delete the directory or choose an empty work directory");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot prepare the Kafka work directory "
              + workDirectory
              + ": check that it is writable and has space",
          e);
    }
  }

  private void writeConfig(String writtenBy) throws IOException {
    Properties properties = brokerProperties();
    try (OutputStream out = Files.newOutputStream(configFile)) {
      properties.store(out, "written by the reliability lab's " + writtenBy);
    }
  }

  /**
   * Waits until the broker answers an admin request, within the ready timeout.
   *
   * @param whyNot null while the broker may still come up, or why it never will (a process that
   *     ended), so that a dead broker fails at once instead of after the whole timeout
   * @throws IllegalStateException if it does not answer in time, or {@code whyNot} says it ended
   */
  void awaitReady(Supplier<@Nullable String> whyNot) {
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    Exception last = null;
    while (true) {
      String dead = whyNot.get();
      if (dead != null) {
        throw new IllegalStateException(dead);
      }
      long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (remainingMs <= 0) {
        throw new IllegalStateException(
            "the broker did not answer an admin request within " + readyTimeout.toMillis() + " ms",
            last);
      }
      int attemptMs = (int) Math.min(remainingMs, READY_ATTEMPT.toMillis());
      Map<String, Object> properties = new LinkedHashMap<>();
      properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
      properties.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
      properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, attemptMs);
      properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, attemptMs);
      try (Admin admin = Admin.create(properties)) {
        admin
            .describeCluster(new DescribeClusterOptions().timeoutMs(attemptMs))
            .nodes()
            .get(attemptMs, TimeUnit.MILLISECONDS);
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for the broker to answer", e);
      } catch (Exception e) {
        last = e;
      }
    }
  }

  private static String readClusterId(Path meta) throws IOException {
    Properties properties = new Properties();
    try (var in = Files.newInputStream(meta)) {
      properties.load(in);
    }
    String id = properties.getProperty("cluster.id");
    if (id == null || id.isBlank()) {
      throw new IllegalStateException(
          meta + " names no cluster.id: delete the Kafka log directory or choose another one");
    }
    return id;
  }

  static boolean isBindFailure(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException
          || String.valueOf(cause.getMessage()).contains("Address already in use")) {
        return true;
      }
    }
    return false;
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot find a free port on " + HOST + ": is the loopback interface up?", e);
    }
  }

  static int checkPartitions(int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("defaultPartitions must be at least 1, got " + partitions);
    }
    return partitions;
  }

  static Duration checkReadyTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("readyTimeout must be positive, got " + timeout);
    }
    return timeout;
  }
}
