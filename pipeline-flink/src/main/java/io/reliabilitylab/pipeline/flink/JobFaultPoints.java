package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.faults.FaultChannel;
import io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard;
import io.reliabilitylab.pipeline.flink.faults.StartGates;
import io.reliabilitylab.spi.fault.FaultPosition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Arms a job's fault points where they run: through the switchboard when they run in the lab's JVM
 * (a MiniCluster), else through the job's fault channel, whose round trip says whether the points
 * can be reached at all.
 */
final class JobFaultPoints {

  private static final Logger LOG = LoggerFactory.getLogger(JobFaultPoints.class);

  private final Supplier<Set<String>> points;
  // The way to the job's fault points in other JVMs; null while they run in this one.
  private final @Nullable FaultChannel channel;
  private volatile FaultChannelState state;

  private JobFaultPoints(
      Supplier<Set<String>> points, @Nullable FaultChannel channel, FaultChannelState state) {
    this.points = points;
    this.channel = channel;
    this.state = state;
  }

  /** Through {@code channelDirectory}, or in this JVM when it is null. */
  static JobFaultPoints of(@Nullable Path channelDirectory, Supplier<Set<String>> points) {
    if (channelDirectory == null) {
      return new JobFaultPoints(points, null, FaultChannelState.IN_JVM);
    }
    return new JobFaultPoints(
        points,
        FaultChannel.open(channelDirectory),
        FaultChannelState.unverified(channelDirectory.toString()));
  }

  FaultChannelState state() {
    return state;
  }

  /**
   * Whether the points can be reached while the job runs on {@code cluster}: in this JVM, or
   * through a channel whose round trip has not failed (on a session cluster: has succeeded).
   */
  boolean reachableOn(FlinkCluster cluster) {
    if (ClusterDescription.miniClusterOf(cluster) != null) {
      return true;
    }
    FaultChannelState current = state;
    return ClusterDescription.processesOf(cluster) != null ? !current.failed() : current.verified();
  }

  void arm(String point, FaultPosition position, String action, String faultId) {
    if (channel != null) {
      channel.arm(point, position, action, faultId);
    } else {
      FaultSwitchboard.arm(point, position, action, faultId);
    }
  }

  void disarm(String faultId) {
    if (channel != null) {
      channel.disarm(faultId);
    } else {
      FaultSwitchboard.disarm(faultId);
    }
  }

  /** Opens the job's start gate where its fault points run: in other JVMs or in this one. */
  void openStartGate(String gate) {
    if (channel != null) {
      channel.openStartGate(gate);
    } else {
      StartGates.open(gate);
    }
  }

  Optional<Instant> firedAt(String faultId) {
    return channel != null ? channel.firedAt(faultId) : FaultSwitchboard.firedAt(faultId);
  }

  /**
   * The round trip: the job's JobManager and the {@code taskManagers} TaskManagers running its
   * tasks must answer through the channel within {@code timeout}. The lab's own JVM may answer too
   * (its client loaded the sink's catalog), so the answers are counted by role.
   */
  void verify(Duration timeout, Callable<Integer> taskManagers) {
    FaultChannel through = channel;
    if (through == null || points.get().isEmpty()) {
      return;
    }
    int expectedTaskManagers;
    try {
      expectedTaskManagers = taskManagers.call();
    } catch (Exception e) {
      state = FaultChannelState.failed("the job's TaskManagers are unknown: " + e);
      return;
    }
    Set<String> answered;
    try {
      answered = through.roundTrip(timeout, expectedTaskManagers + 2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      state = FaultChannelState.failed("interrupted during the round trip");
      return;
    }
    long jobManagers = answered.stream().filter(a -> a.endsWith(" jobmanager")).count();
    long taskManagersAnswered = answered.stream().filter(a -> a.endsWith(" taskmanager")).count();
    if (jobManagers >= 1 && taskManagersAnswered >= expectedTaskManagers) {
      state = FaultChannelState.verified(String.join(", ", answered));
      LOG.info("Fault channel {} verified: {}", through.directory(), answered);
      return;
    }
    state =
        FaultChannelState.failed(
            jobManagers
                + " JobManager(s) and "
                + taskManagersAnswered
                + " of "
                + expectedTaskManagers
                + " TaskManager(s) running the job answered within "
                + timeout.toMillis()
                + " ms ("
                + String.join(", ", answered)
                + "): is "
                + through.directory()
                + " on a file system every JobManager and TaskManager shares?");
    LOG.warn("Fault channel {} failed its round trip: {}", through.directory(), state.text());
  }
}
