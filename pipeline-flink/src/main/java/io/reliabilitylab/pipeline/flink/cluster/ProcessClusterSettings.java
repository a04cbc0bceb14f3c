package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * How a multi-process Flink cluster the lab launches is sized and how quickly it notices a lost
 * process: JobManagers (two for a standby through ZooKeeper), TaskManagers and their memory,
 * heartbeat and ZooKeeper timeouts.
 *
 * <pre>{@code
 * ProcessClusterSettings settings = ProcessClusterSettings.builder()
 *     .jobManagers(2)          // HA: a standby JobManager and a ZooKeeper process
 *     .taskManagers(1)
 *     .build();
 * ProcessClusterSettings same = ProcessClusterSettings.parse("processes:1tm:2jm");
 * }</pre>
 *
 * @param jobManagers 1, or 2 for high availability through ZooKeeper
 * @param taskManagers how many TaskManager processes
 * @param slotsPerTaskManager slots of each TaskManager
 * @param taskManagerProcessMemory each TaskManager's total process memory, in Flink's syntax (e.g.
 *     {@code 1024m}); Flink derives heap, managed and network memory from it
 * @param jobManagerHeap each JobManager's maximum heap, in Flink's syntax (e.g. {@code 512m})
 * @param heartbeatInterval how often JobManager and TaskManagers exchange heartbeats
 * @param heartbeatTimeout after how long without a heartbeat a process is declared lost
 * @param askTimeout the RPC ask timeout
 * @param zooKeeperSessionTimeout the ZooKeeper client session timeout: a killed leader's leadership
 *     ends when its session expires
 * @param zooKeeperConnectionTimeout the ZooKeeper client connection timeout
 * @param startTimeout how long the cluster may take to come up
 * @param extra further Flink settings by key, written into the configuration last
 */
@API(status = EXPERIMENTAL)
public record ProcessClusterSettings(
    int jobManagers,
    int taskManagers,
    int slotsPerTaskManager,
    String taskManagerProcessMemory,
    String jobManagerHeap,
    Duration heartbeatInterval,
    Duration heartbeatTimeout,
    Duration askTimeout,
    Duration zooKeeperSessionTimeout,
    Duration zooKeeperConnectionTimeout,
    Duration startTimeout,
    Map<String, String> extra) {

  /** The option text's accepted forms, for the message on bad input. */
  static final String FORMS =
      "processes, processes:<taskmanagers>, processes:<n>jm, processes:<n>tm:<n>jm"
          + " (e.g. processes:3, processes:2jm, processes:1tm:2jm; jm is 1 or 2)";

  private static final Pattern PART = Pattern.compile("([0-9]{1,3})(tm|jm)?");

  public ProcessClusterSettings {
    Objects.requireNonNull(taskManagerProcessMemory, "taskManagerProcessMemory");
    Objects.requireNonNull(jobManagerHeap, "jobManagerHeap");
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(askTimeout, "askTimeout");
    Objects.requireNonNull(zooKeeperSessionTimeout, "zooKeeperSessionTimeout");
    Objects.requireNonNull(zooKeeperConnectionTimeout, "zooKeeperConnectionTimeout");
    Objects.requireNonNull(startTimeout, "startTimeout");
    extra = Map.copyOf(extra);
    if (jobManagers < 1 || jobManagers > 2) {
      throw new IllegalArgumentException(
          "A process cluster has 1 JobManager, or 2 for a standby; got " + jobManagers);
    }
    if (taskManagers < 1 || slotsPerTaskManager < 1) {
      throw new IllegalArgumentException(
          "A process cluster needs at least one TaskManager with one slot, got "
              + taskManagers
              + " x "
              + slotsPerTaskManager);
    }
    if (heartbeatTimeout.compareTo(heartbeatInterval) <= 0) {
      throw new IllegalArgumentException(
          "heartbeatTimeout ("
              + heartbeatTimeout
              + ") must exceed heartbeatInterval ("
              + heartbeatInterval
              + ")");
    }
  }

  /** Whether a standby JobManager and ZooKeeper run: two JobManagers. */
  public boolean highAvailability() {
    return jobManagers == 2;
  }

  /** The defaults: 1 JobManager, 2 TaskManagers of 1 GiB with 2 slots, 1 s / 5 s heartbeats. */
  public static ProcessClusterSettings defaults() {
    return builder().build();
  }

  /**
   * Reads the option text: {@code processes} (the defaults), {@code processes:3} (3 TaskManagers),
   * {@code processes:2jm} (a standby JobManager), {@code processes:1tm:2jm}, {@code
   * processes:3tm:2jm}.
   *
   * @throws IllegalArgumentException with one line naming the accepted forms
   */
  public static ProcessClusterSettings parse(String text) {
    Objects.requireNonNull(text, "text");
    String[] parts = text.trim().split(":", -1);
    if (!parts[0].equals("processes") || parts.length > 3) {
      throw badOption(text);
    }
    Builder builder = builder();
    boolean taskManagersSeen = false;
    boolean jobManagersSeen = false;
    for (int i = 1; i < parts.length; i++) {
      Matcher part = PART.matcher(parts[i]);
      if (!part.matches()) {
        throw badOption(text);
      }
      int count = Integer.parseInt(part.group(1));
      String unit = part.group(2);
      if ("jm".equals(unit)) {
        if (jobManagersSeen || (count != 1 && count != 2)) {
          throw badOption(text);
        }
        jobManagersSeen = true;
        builder.jobManagers(count);
      } else {
        // a bare count names TaskManagers, and only in the first place (processes:3)
        if (taskManagersSeen || jobManagersSeen || (unit == null && i != 1) || count < 1) {
          throw badOption(text);
        }
        taskManagersSeen = true;
        builder.taskManagers(count);
      }
    }
    return builder.build();
  }

  private static IllegalArgumentException badOption(String text) {
    return new IllegalArgumentException("Unknown process cluster '" + text + "': use " + FORMS);
  }

  /** The option text that {@link #parse(String)} reads back as this sizing. */
  public String optionText() {
    return "processes:" + taskManagers + "tm:" + jobManagers + "jm";
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ProcessClusterSettings}. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private int jobManagers = 1;
    private int taskManagers = 2;
    private int slotsPerTaskManager = 2;
    // 768m failed: "exceed configured Total Flink Memory" (STACK.md)
    private String taskManagerProcessMemory = "1024m";
    private String jobManagerHeap = "512m";
    private Duration heartbeatInterval = Duration.ofSeconds(1);
    private Duration heartbeatTimeout = Duration.ofSeconds(5);
    private Duration askTimeout = Duration.ofSeconds(10);
    // 3 s lost the leader for nothing on 2 loaded cores (a client that did not hear from the
    // server in 2 s gave up its session); 6 s keeps a takeover under 10 s.
    private Duration zooKeeperSessionTimeout = Duration.ofSeconds(6);
    private Duration zooKeeperConnectionTimeout = Duration.ofSeconds(6);
    private Duration startTimeout = Duration.ofSeconds(120);
    private Map<String, String> extra = Map.of();

    private Builder() {}

    public Builder jobManagers(int value) {
      this.jobManagers = value;
      return this;
    }

    public Builder taskManagers(int value) {
      this.taskManagers = value;
      return this;
    }

    public Builder slotsPerTaskManager(int value) {
      this.slotsPerTaskManager = value;
      return this;
    }

    public Builder taskManagerProcessMemory(String value) {
      this.taskManagerProcessMemory = value;
      return this;
    }

    public Builder jobManagerHeap(String value) {
      this.jobManagerHeap = value;
      return this;
    }

    public Builder heartbeatInterval(Duration value) {
      this.heartbeatInterval = value;
      return this;
    }

    public Builder heartbeatTimeout(Duration value) {
      this.heartbeatTimeout = value;
      return this;
    }

    public Builder askTimeout(Duration value) {
      this.askTimeout = value;
      return this;
    }

    public Builder zooKeeperSessionTimeout(Duration value) {
      this.zooKeeperSessionTimeout = value;
      return this;
    }

    public Builder zooKeeperConnectionTimeout(Duration value) {
      this.zooKeeperConnectionTimeout = value;
      return this;
    }

    public Builder startTimeout(Duration value) {
      this.startTimeout = value;
      return this;
    }

    public Builder extra(Map<String, String> value) {
      this.extra = value;
      return this;
    }

    public ProcessClusterSettings build() {
      return new ProcessClusterSettings(
          jobManagers,
          taskManagers,
          slotsPerTaskManager,
          taskManagerProcessMemory,
          jobManagerHeap,
          heartbeatInterval,
          heartbeatTimeout,
          askTimeout,
          zooKeeperSessionTimeout,
          zooKeeperConnectionTimeout,
          startTimeout,
          extra);
    }
  }
}
