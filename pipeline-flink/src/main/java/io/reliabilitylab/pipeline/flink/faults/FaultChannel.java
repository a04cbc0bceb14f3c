package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * Arms the reference jobs' fault points in every JVM the job runs in, through a control directory:
 * the lab writes arm files (atomically), a {@link FaultChannelWatcher} in each JVM of the job arms
 * its own {@link FaultSwitchboard} from them, and an arming fires once across all those JVMs and
 * across restarts, because before it fires the JVM claims it with a create-new marker file; the JVM
 * that fired writes the firing back (when, where, which checkpoint, which process). The same
 * validation and messages as {@link FaultSwitchboard#arm(String, FaultPosition, String, String)}.
 *
 * <pre>{@code
 * FaultChannel channel = FaultChannel.open(runDirectory.resolve("fault-channel"));
 * // the job's settings name the same directory: OrdersJobSettings.builder().faultChannel(...)
 * Set<String> answered = channel.roundTrip(Duration.ofSeconds(10), 3); // 1 JobManager + 2 TMs
 * channel.arm(FaultSwitchboard.OPERATOR, FaultPosition.parse("after-event:500"), "throw", id);
 * Optional<FaultFiring> fired = channel.firing(id); // process "4711@host", checkpoint, time
 * channel.disarm(id);
 * }</pre>
 *
 * <p>Counts ({@code after-event:K}, {@code snapshot-phase:K}) count per JVM, from the moment that
 * JVM learnt the arming (its watcher polls every {@value FaultChannelWatcher#POLL_MILLIS} ms), not
 * across the job: with parallelism spread over several TaskManagers, the first JVM whose subtasks
 * pass K fires. A throttle slows every JVM that reaches its position; the first reports its start.
 *
 * <p>What a cluster needs: the directory on a file system that the lab and every JobManager and
 * TaskManager of the cluster share (a local directory when all run on one machine, as the lab's
 * process cluster does; NFS or the like across machines, with exclusive create, which NFSv3 and
 * later have), and the lab's jar on the cluster's class path (so that one watcher and one
 * switchboard serve the whole JVM). A cluster whose machines share no file system cannot use it: no
 * watcher answers {@link #roundTrip}, and the lab then does not offer fault points.
 */
@API(status = EXPERIMENTAL)
public final class FaultChannel {

  private static final long POLL_MILLIS = 20;

  private final ChannelLayout layout;

  private FaultChannel(ChannelLayout layout) {
    this.layout = layout;
  }

  /** Opens (creating it if needed) the control directory {@code directory}. */
  public static FaultChannel open(Path directory) {
    Objects.requireNonNull(directory, "directory");
    ChannelLayout layout = new ChannelLayout(directory);
    try {
      for (Path sub : layout.directories()) {
        Files.createDirectories(sub);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot create the fault channel directory " + layout.root() + ": " + e, e);
    }
    return new FaultChannel(layout);
  }

  /** The control directory, absolute: what the job's settings must name. */
  public Path directory() {
    return layout.root();
  }

  /**
   * Arms {@code point} in every JVM that watches this channel; the action in its text form ({@code
   * throw}, {@code throttle-2ms}, ...). Fails, as the switchboard does, on an unknown point, a
   * position or action the point does not support, or a fault id armed already.
   */
  public synchronized void arm(
      String point, FaultPosition position, String action, String faultId) {
    FaultSwitchboard.check(point, position, action, faultId);
    try {
      if (!armEntriesOf(faultId).isEmpty()) {
        throw FaultSwitchboard.alreadyArmed(faultId);
      }
      // A re-arming starts afresh: the previous arming's firing is forgotten, as the switchboard
      // forgets it.
      Files.deleteIfExists(layout.firingFile(faultId));
      Properties arming = new Properties();
      arming.setProperty("fault-id", faultId);
      arming.setProperty("point", point);
      arming.setProperty("position", position.text());
      arming.setProperty("action", action.strip());
      arming.setProperty("stall-limit", FaultSwitchboard.DEFAULT_STALL_LIMIT.toString());
      arming.setProperty("armed-at", Instant.now().toString());
      arming.setProperty("armed-by", ProcessIdentity.name());
      ChannelLayout.writeAtomically(layout.armFile(faultId, ChannelLayout.newToken()), arming);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot arm fault " + faultId + " in " + layout.root(), e);
    }
  }

  /**
   * Opens the job's start gate {@code gate} in every JVM that watches this channel: call it after
   * arming the faults placed at the job's start (their arm files are read before the gate).
   */
  public synchronized void openStartGate(String gate) {
    Objects.requireNonNull(gate, "gate");
    try {
      ChannelLayout.writeAtomically(layout.gateFile(gate), new byte[0]);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open start gate " + gate + " in " + layout.root(), e);
    }
  }

  /**
   * Disarms the fault in every JVM (ending its stall or throttle within a poll of their watchers);
   * unknown ids are ignored. Its firing stays readable.
   */
  public synchronized void disarm(String faultId) {
    Objects.requireNonNull(faultId, "faultId");
    try {
      for (ChannelLayout.ArmEntry entry : armEntriesOf(faultId)) {
        Files.deleteIfExists(entry.file());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot disarm fault " + faultId + " in " + layout.root(), e);
    }
  }

  /** Disarms every fault of this channel: between scenarios. */
  public synchronized void disarmAll() {
    try {
      for (ChannelLayout.ArmEntry entry : layout.armEntries()) {
        Files.deleteIfExists(entry.file());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot disarm the faults in " + layout.root(), e);
    }
  }

  /**
   * How the fault fired, as the JVM that fired it wrote back: when, at which point and checkpoint,
   * and the process ({@code pid@host}); for a throttle, when it began. Empty until it fired.
   */
  public Optional<FaultFiring> firing(String faultId) {
    Objects.requireNonNull(faultId, "faultId");
    Path file = layout.firingFile(faultId);
    Properties properties;
    try {
      properties = ChannelLayout.read(file);
      List<ChannelLayout.ArmEntry> armed = armEntriesOf(faultId);
      String token = properties.getProperty("token", "");
      if (!armed.isEmpty() && armed.stream().noneMatch(entry -> entry.token().equals(token))) {
        return Optional.empty(); // a late firing of an earlier arming of this id
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the firing of " + faultId, e);
    }
    try {
      return Optional.of(ChannelLayout.firingOf(properties, file));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "The firing record " + file + " is malformed: " + e.getMessage(), e);
    }
  }

  /** When the fault fired (a throttle: began), as {@link #firing} tells. */
  public Optional<Instant> firedAt(String faultId) {
    return firing(faultId).map(FaultFiring::at);
  }

  /**
   * Asks every JVM that watches this channel to answer, and returns the answers after {@code
   * expectedAnswers} came or {@code timeout} passed: each {@code pid@host role}, the role {@code
   * jobmanager}, {@code taskmanager} or {@code jvm} (any other process: the lab's own JVM, which
   * watches too when it runs a MiniCluster or loaded the job's Iceberg catalog). A JVM watches once
   * a fault point of the job ran there (or from its start with {@value
   * FaultChannelWatcher#CHANNEL_PROPERTY}): ask after the job is running.
   */
  public Set<String> roundTrip(Duration timeout, int expectedAnswers) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    String ping = ChannelLayout.newToken();
    Set<String> answers = new TreeSet<>();
    try {
      ChannelLayout.writeAtomically(layout.pingFile(ping), new Properties());
      long deadline = System.nanoTime() + timeout.toNanos();
      do {
        answers.clear();
        for (Path pong : pongsOf(ping)) {
          answers.add(new String(Files.readAllBytes(pong), StandardCharsets.UTF_8).strip());
        }
        if (answers.size() >= expectedAnswers) {
          break;
        }
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
      } while (System.nanoTime() - deadline < 0);
      Files.deleteIfExists(layout.pingFile(ping));
      for (Path pong : pongsOf(ping)) {
        Files.deleteIfExists(pong);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("The round trip through " + layout.root() + " failed", e);
    }
    return answers;
  }

  /**
   * What the watchers could not arm, one line each ({@code fault id, process: reason}): a malformed
   * arm file, or a fault id armed in that JVM already.
   */
  public List<String> rejections() {
    List<String> lines = new ArrayList<>();
    try {
      for (Path file : ChannelLayout.list(layout.rejectedDirectory())) {
        if (file.getFileName().toString().startsWith(".")) {
          continue;
        }
        Properties rejection = ChannelLayout.read(file);
        lines.add(
            rejection.getProperty("fault-id", "?")
                + ", "
                + rejection.getProperty("process", "?")
                + ": "
                + rejection.getProperty("reason", "?"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the rejections in " + layout.root(), e);
    }
    lines.sort(null);
    return lines;
  }

  private List<ChannelLayout.ArmEntry> armEntriesOf(String faultId) throws IOException {
    return layout.armEntries().stream().filter(entry -> entry.faultId().equals(faultId)).toList();
  }

  private List<Path> pongsOf(String ping) throws IOException {
    return ChannelLayout.list(layout.pongDirectory()).stream()
        .filter(
            file -> {
              String name = file.getFileName().toString();
              return name.startsWith(ping + ".") && name.endsWith(ChannelLayout.PONG_SUFFIX);
            })
        .toList();
  }

  @Override
  public String toString() {
    return "FaultChannel{" + layout.root() + "}";
  }
}
