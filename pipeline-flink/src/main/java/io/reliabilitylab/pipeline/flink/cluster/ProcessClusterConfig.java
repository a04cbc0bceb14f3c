package io.reliabilitylab.pipeline.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ClusterOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.RpcOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;
import org.jspecify.annotations.Nullable;

/**
 * The files and command lines of one process cluster: {@code conf/config.yaml}, the logging
 * configuration, the Java argument file with the class path, ZooKeeper's {@code zoo.cfg}, and the
 * {@code java} commands of each process. Processes write {@code logs/<role>.log} (their logging)
 * and {@code logs/<role>.out} (stdout and stderr); their pid files are in {@code pids/}.
 */
final class ProcessClusterConfig {

  static final String JOB_MANAGER_MAIN =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  static final String ZOOKEEPER_MAIN =
      "org.apache.flink.runtime.zookeeper.FlinkZooKeeperQuorumPeer";
  static final String LOOPBACK = "127.0.0.1";

  /**
   * What Flink 1.20's own {@code config.yaml} passes to every JVM on Java 17 ({@code
   * env.java.opts.all}); the lab's tests need only the first three, Flink's RPC and memory code
   * more.
   */
  static final List<String> JAVA_17_FLAGS =
      List.of(
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
          "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
          "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.text=ALL-UNNAMED",
          "--add-opens=java.base/java.time=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  /** The ports one JobManager listens on; a restarted JobManager takes the same. */
  record JobManagerPorts(int rest, int rpc, int blob) {}

  final ProcessClusterSettings settings;
  final Path directory;
  final Path conf;
  final Path logs;
  final Path pids;
  final String clusterId;
  final @Nullable Integer zooKeeperPort;

  /**
   * Where the cluster's processes reach ZooKeeper: the lab's proxy in front of it, so that a
   * network fault can cut the cluster off its coordination service; the lab's own clients go
   * direct.
   */
  final @Nullable Integer zooKeeperProxyPort;

  final List<JobManagerPorts> jobManagerPorts;
  final Configuration configuration;
  private final List<String> taskManagerMemoryJvmFlags;
  private final List<String> taskManagerMemoryDynamicConfig;

  private ProcessClusterConfig(ProcessClusterSettings settings, Path directory) {
    this.settings = settings;
    this.directory = directory.toAbsolutePath().normalize();
    this.conf = this.directory.resolve("conf");
    this.logs = this.directory.resolve("logs");
    this.pids = this.directory.resolve("pids");
    this.clusterId = "srl-" + UUID.randomUUID().toString().substring(0, 8);
    List<Integer> ports = freePorts(3 * settings.jobManagers() + 2);
    this.zooKeeperPort = settings.highAvailability() ? ports.get(ports.size() - 1) : null;
    this.zooKeeperProxyPort = settings.highAvailability() ? ports.get(ports.size() - 2) : null;
    List<JobManagerPorts> jms = new ArrayList<>();
    for (int i = 0; i < settings.jobManagers(); i++) {
      jms.add(new JobManagerPorts(ports.get(3 * i), ports.get(3 * i + 1), ports.get(3 * i + 2)));
    }
    this.jobManagerPorts = List.copyOf(jms);
    this.configuration = flinkConfiguration();
    TaskExecutorProcessSpec memory = TaskExecutorProcessUtils.processSpecFromConfig(configuration);
    this.taskManagerMemoryJvmFlags = split(ProcessMemoryUtils.generateJvmParametersStr(memory));
    this.taskManagerMemoryDynamicConfig =
        split(TaskExecutorProcessUtils.generateDynamicConfigsStr(memory));
  }

  /** Chooses ports and writes every file the cluster's processes read. */
  static ProcessClusterConfig write(ProcessClusterSettings settings, Path directory)
      throws IOException {
    ProcessClusterConfig config = new ProcessClusterConfig(settings, directory);
    config.writeFiles();
    return config;
  }

  private Configuration flinkConfiguration() {
    Configuration c = new Configuration();
    c.set(JobManagerOptions.ADDRESS, LOOPBACK);
    c.set(JobManagerOptions.BIND_HOST, LOOPBACK);
    c.set(JobManagerOptions.PORT, jobManagerPorts.get(0).rpc());
    c.set(TaskManagerOptions.HOST, LOOPBACK);
    c.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
    c.set(RestOptions.ADDRESS, LOOPBACK);
    c.set(RestOptions.BIND_ADDRESS, LOOPBACK);
    c.set(RestOptions.PORT, jobManagerPorts.get(0).rest());
    c.set(TaskManagerOptions.NUM_TASK_SLOTS, settings.slotsPerTaskManager());
    c.set(
        TaskManagerOptions.TOTAL_PROCESS_MEMORY,
        MemorySize.parse(settings.taskManagerProcessMemory()));
    c.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, settings.heartbeatInterval());
    c.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, settings.heartbeatTimeout());
    c.set(RpcOptions.ASK_TIMEOUT_DURATION, settings.askTimeout());
    // The REST metrics (numRestarts) are refreshed this often; Flink's default is 10 s.
    c.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, java.time.Duration.ofMillis(500));
    // The metric fetcher starts no new fetch until every TaskManager answered or web.timeout
    // passed: with Flink's 10 min a SIGSTOPped TaskManager froze numRestarts for 10 min.
    c.set(WebOptions.TIMEOUT, settings.askTimeout().multipliedBy(2));
    // The REST job details and checkpoint statistics are cached this long; Flink's default is 3 s.
    c.set(WebOptions.REFRESH_INTERVAL, java.time.Duration.ofMillis(200));
    c.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, java.time.Duration.ofMillis(200));
    // A lost process must not hold the cluster: restart jobs quickly, without Flink's back-off.
    c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
    c.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
        java.time.Duration.ofMillis(500));
    c.set(ClusterOptions.EVENLY_SPREAD_OUT_SLOTS_STRATEGY, true);
    // Checkpoints a job does not place itself go under the cluster directory: a JobManager that
    // takes over restores from them.
    c.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
        directory.resolve("checkpoints").toUri().toString());
    if (settings.highAvailability()) {
      c.set(HighAvailabilityOptions.HA_MODE, "zookeeper");
      c.set(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM, LOOPBACK + ":" + zooKeeperProxyPort);
      c.set(HighAvailabilityOptions.HA_STORAGE_PATH, directory.resolve("ha").toUri().toString());
      c.set(HighAvailabilityOptions.HA_CLUSTER_ID, clusterId);
      c.set(HighAvailabilityOptions.ZOOKEEPER_SESSION_TIMEOUT, settings.zooKeeperSessionTimeout());
      c.set(
          HighAvailabilityOptions.ZOOKEEPER_CONNECTION_TIMEOUT,
          settings.zooKeeperConnectionTimeout());
      c.set(HighAvailabilityOptions.ZOOKEEPER_RETRY_WAIT, java.time.Duration.ofMillis(500));
    }
    c.addAll(Configuration.fromMap(settings.extra()));
    return c;
  }

  /**
   * The cluster's settings as the lab's own clients use them: ZooKeeper reached directly, not
   * through the proxy the processes use, so that cutting the cluster off does not blind the lab.
   */
  Configuration labConfiguration() {
    Configuration c = new Configuration(configuration);
    if (zooKeeperPort != null) {
      c.set(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM, LOOPBACK + ":" + zooKeeperPort);
    }
    return c;
  }

  /** The REST client's settings: the cluster's, so that in HA mode it follows the leader. */
  Configuration clientConfiguration() {
    Configuration c = labConfiguration();
    c.set(RestOptions.RETRY_DELAY, java.time.Duration.ofMillis(100));
    return c;
  }

  /**
   * The lab's class path with every entry absolute: the processes run in other working directories,
   * and {@code java -jar examples/target/reliability-lab.jar} names its jar relatively.
   */
  static String absoluteClassPath() {
    return java.util.Arrays.stream(
            System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  private void writeFiles() throws IOException {
    Files.createDirectories(conf);
    Files.createDirectories(logs);
    Files.createDirectories(pids);
    Files.write(
        conf.resolve("config.yaml"),
        ConfigurationUtils.convertConfigToWritableLines(configuration, true));
    Files.writeString(conf.resolve("logback.xml"), LOGBACK);
    Files.writeString(conf.resolve("log4j2.properties"), LOG4J2);
    // An argument file: a long class path passes no command-line length limit. Under Surefire and
    // Failsafe java.class.path is the whole test class path (the manifest-only booter jar is
    // surefire.real.class.path); a jar whose manifest names a Class-Path would be honoured too.
    Files.writeString(conf.resolve("classpath.args"), "-cp " + quoted(absoluteClassPath()));
    if (zooKeeperPort != null) {
      Path zk = Files.createDirectories(directory.resolve("zk"));
      Files.writeString(
          zk.resolve("zoo.cfg"),
          String.join(
              "\n",
              "tickTime=500",
              "initLimit=10",
              "syncLimit=5",
              "minSessionTimeout=1000",
              "maxSessionTimeout=60000",
              "dataDir=" + zk.resolve("data"),
              "clientPort=" + zooKeeperPort,
              "clientPortAddress=" + LOOPBACK,
              "admin.enableServer=false",
              ""));
    }
  }

  private static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  ProcessBuilder zooKeeper() {
    return java(
        "zookeeper",
        // ZooKeeper serves a few clients: little JIT and one GC thread leave the CPU to Flink.
        // Empty container znodes are kept for the cluster's life: when a cut expires every
        // session, the leader latch's parent is empty until the JobManagers reconnect, and a
        // container reaped then can leave Flink's Curator 5.4.0 latch idle with no leader elected
        // (CURATOR-724, fixed in 5.8.0; once in CI a cluster stayed leaderless for minutes).
        List.of(
            "-Xmx128m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Dznode.container.checkIntervalMs=" + Integer.MAX_VALUE),
        ZOOKEEPER_MAIN,
        List.of(
            "--zkConfigFile",
            directory.resolve("zk").resolve("zoo.cfg").toString(),
            "--peerId",
            "1"));
  }

  ProcessBuilder jobManager(String id, JobManagerPorts ports) {
    List<String> arguments = new ArrayList<>(List.of("--configDir", conf.toString()));
    addDynamic(arguments, RestOptions.PORT.key(), ports.rest());
    addDynamic(arguments, "blob.server.port", ports.blob());
    if (settings.highAvailability()) {
      addDynamic(arguments, HighAvailabilityOptions.HA_JOB_MANAGER_PORT_RANGE.key(), ports.rpc());
    } else {
      addDynamic(arguments, JobManagerOptions.PORT.key(), ports.rpc());
    }
    // The JobManager coordinates and carries no records: the client compiler and the serial
    // collector start it sooner on a few cores, where C2's compile threads compete with the rest.
    return java(
        role(id),
        List.of("-Xmx" + settings.jobManagerHeap(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
        JOB_MANAGER_MAIN,
        arguments);
  }

  ProcessBuilder taskManager(String resourceId) {
    List<String> arguments = new ArrayList<>(List.of("--configDir", conf.toString()));
    arguments.addAll(taskManagerMemoryDynamicConfig);
    addDynamic(arguments, TaskManagerOptions.TASK_MANAGER_RESOURCE_ID.key(), resourceId);
    return java(role(resourceId), taskManagerMemoryJvmFlags, TASK_MANAGER_MAIN, arguments);
  }

  /** The process role of a JobManager ("jm-1") or TaskManager ("tm-2"): "flink-jm-1". */
  static String role(String id) {
    return "flink-" + id;
  }

  Path logOf(String role) {
    return logs.resolve(role + ".log");
  }

  Path outputOf(String role) {
    return logs.resolve(role + ".out");
  }

  private static void addDynamic(List<String> arguments, String key, Object value) {
    arguments.add("-D");
    arguments.add(key + "=" + value);
  }

  private ProcessBuilder java(
      String role, List<String> memoryFlags, String mainClass, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JAVA_17_FLAGS);
    command.addAll(memoryFlags);
    // a marker that names the cluster on every process's command line (pgrep -f <clusterId>)
    command.add("-Dsrl.cluster=" + clusterId);
    command.add("-Dlog.file=" + logOf(role));
    command.add("-Dlogback.configurationFile=" + conf.resolve("logback.xml"));
    command.add("-Dlog4j.configurationFile=" + conf.resolve("log4j2.properties"));
    command.add("@" + conf.resolve("classpath.args"));
    command.add(mainClass);
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.directory(directory.toFile());
    return builder;
  }

  private static List<String> split(String flags) {
    return Arrays.stream(flags.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
  }

  /** Distinct free loopback ports; a port may be taken by another program before it is bound. */
  static List<Integer> freePorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
        sockets.add(socket);
        ports.add(socket.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find free loopback ports", e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException e) {
          // closing a probe socket; nothing listens on it
        }
      }
    }
  }

  private static final String LOGBACK =
      """
      <configuration>
        <appender name="FILE" class="ch.qos.logback.core.FileAppender">
          <file>${log.file}</file>
          <append>true</append>
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
        </appender>
        <logger name="org.apache.flink.shaded.zookeeper3" level="WARN"/>
        <logger name="org.apache.zookeeper" level="WARN"/>
        <root level="INFO"><appender-ref ref="FILE"/></root>
      </configuration>
      """;

  private static final String LOG4J2 =
      """
      rootLogger.level = INFO
      rootLogger.appenderRef.file.ref = FILE
      appender.file.name = FILE
      appender.file.type = File
      appender.file.fileName = ${sys:log.file}
      appender.file.append = true
      appender.file.layout.type = PatternLayout
      appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1.} - %m%n
      """;
}
