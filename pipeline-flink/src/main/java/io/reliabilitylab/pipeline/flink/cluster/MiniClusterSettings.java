package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How an embedded MiniCluster is sized and how quickly it notices a lost TaskManager.
 *
 * <pre>{@code
 * MiniClusterSettings settings = MiniClusterSettings.builder()
 *     .taskManagers(1)
 *     .slotsPerTaskManager(2)
 *     .heartbeatTimeout(Duration.ofSeconds(5))
 *     .build();
 * }</pre>
 *
 * @param taskManagers how many TaskManagers
 * @param slotsPerTaskManager slots of each; the job's parallelism must fit in all slots
 * @param heartbeatInterval how often JobManager and TaskManagers exchange heartbeats
 * @param heartbeatTimeout after how long without a heartbeat a TaskManager is declared lost
 * @param askTimeout the RPC ask timeout
 * @param extra further Flink settings by key, applied last
 */
@API(status = EXPERIMENTAL)
public record MiniClusterSettings(
    int taskManagers,
    int slotsPerTaskManager,
    Duration heartbeatInterval,
    Duration heartbeatTimeout,
    Duration askTimeout,
    Map<String, String> extra) {

  public MiniClusterSettings {
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(askTimeout, "askTimeout");
    extra = Map.copyOf(extra);
    if (taskManagers < 1 || slotsPerTaskManager < 1) {
      throw new IllegalArgumentException(
          "A MiniCluster needs at least one TaskManager with one slot, got "
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

  /** The test defaults: one TaskManager with 2 slots, 1 s heartbeats, 5 s timeouts. */
  public static MiniClusterSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link MiniClusterSettings}. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private int taskManagers = 1;
    private int slotsPerTaskManager = 2;
    private Duration heartbeatInterval = Duration.ofSeconds(1);
    private Duration heartbeatTimeout = Duration.ofSeconds(5);
    private Duration askTimeout = Duration.ofSeconds(10);
    private Map<String, String> extra = Map.of();

    private Builder() {}

    public Builder taskManagers(int value) {
      this.taskManagers = value;
      return this;
    }

    public Builder slotsPerTaskManager(int value) {
      this.slotsPerTaskManager = value;
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

    public Builder extra(Map<String, String> value) {
      this.extra = value;
      return this;
    }

    public MiniClusterSettings build() {
      return new MiniClusterSettings(
          taskManagers,
          slotsPerTaskManager,
          heartbeatInterval,
          heartbeatTimeout,
          askTimeout,
          extra);
    }
  }
}
