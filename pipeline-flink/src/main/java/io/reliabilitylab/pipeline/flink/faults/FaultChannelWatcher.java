package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job side of a {@link FaultChannel}: a daemon thread per control directory and JVM that polls
 * the directory every {@value #POLL_MILLIS} ms, arms this JVM's {@link FaultSwitchboard} for every
 * arm file (and disarms it when the file is removed), answers the lab's pings and lets an arming
 * fire only after it claimed the firing with a create-new marker, writing the firing back. Every
 * fault point starts it where it runs ({@link #watch}, idempotent); the first scan happens in the
 * caller's thread, so an arming written before the job started is armed before the point goes on.
 *
 * <p>The checkpoint-storage point has no settings: it follows {@value #LINK_FILE}, a small file in
 * the checkpoint directory that the job writes when it is built ({@link #linkCheckpointDirectory}),
 * and, for a whole cluster, the Flink configuration key or JVM system property {@value
 * #CHANNEL_PROPERTY} read when the cluster process initializes its file systems.
 */
@API(status = INTERNAL)
public final class FaultChannelWatcher {

  /**
   * The Flink configuration key (in a cluster's {@code config.yaml}) and JVM system property that
   * name a channel directory every process of a cluster watches from its start.
   */
  public static final String CHANNEL_PROPERTY = "srl.fault-channel";

  /** The file in a checkpoint directory that names the job's channel directory. */
  public static final String LINK_FILE = "srl-fault-channel";

  /** How often a watcher looks at its directory. */
  static final long POLL_MILLIS = 20;

  /** How often a watcher lists its directory although its modification times did not change. */
  private static final long FULL_SCAN_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final Logger LOG = LoggerFactory.getLogger(FaultChannelWatcher.class);
  private static final Map<Path, FaultChannelWatcher> WATCHERS = new ConcurrentHashMap<>();
  private static final Map<Path, Long> LINKS_CHECKED = new ConcurrentHashMap<>();

  private final ChannelLayout layout;
  private final Map<String, String> learnt = new HashMap<>();
  private final Set<String> refused = new HashSet<>();
  private final Set<String> answered = new HashSet<>();
  private final Set<String> gatesOpened = new HashSet<>();
  private final Thread thread;
  private volatile boolean running = true;
  private @Nullable FileTime armSeen;
  private @Nullable FileTime pingSeen;
  private @Nullable FileTime gateSeen;
  private long lastFullScan;
  private boolean missingReported;

  private FaultChannelWatcher(ChannelLayout layout) {
    this.layout = layout;
    this.thread = new Thread(this::run, "srl-fault-channel " + layout.root());
    thread.setDaemon(true);
  }

  /** Starts watching {@code directory} in this JVM unless a watcher does already. */
  public static void watch(Path directory) {
    Objects.requireNonNull(directory, "directory");
    ChannelLayout layout = new ChannelLayout(directory);
    WATCHERS.computeIfAbsent(
        layout.root(),
        root -> {
          FaultChannelWatcher watcher = new FaultChannelWatcher(layout);
          watcher.scan(true);
          watcher.thread.start();
          LOG.info(
              "Watching fault channel {} in {} ({})",
              root,
              ProcessIdentity.name(),
              ProcessIdentity.role());
          return watcher;
        });
  }

  /** Starts watching the directory a serialized setting names; nothing when it names none. */
  static void watch(@Nullable String directory) {
    if (directory != null) {
      watch(Path.of(directory));
    }
  }

  /**
   * Writes {@value #LINK_FILE} into {@code checkpointDirectory}, naming {@code channel}: the
   * checkpoint-storage point of any JVM that writes a checkpoint there then watches that channel.
   */
  public static void linkCheckpointDirectory(Path checkpointDirectory, Path channel) {
    Properties link = new Properties();
    link.setProperty("directory", channel.toAbsolutePath().normalize().toString());
    try {
      Files.createDirectories(checkpointDirectory);
      ChannelLayout.writeAtomically(checkpointDirectory.resolve(LINK_FILE), link);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot write the fault channel link into " + checkpointDirectory + ": " + e, e);
    }
  }

  /**
   * Watches the channel that {@code checkpointDirectory}'s {@value #LINK_FILE} names, looking at
   * most once a second per directory while it names none.
   */
  static void followLink(Path checkpointDirectory) {
    Long next = LINKS_CHECKED.get(checkpointDirectory);
    long now = System.nanoTime();
    if (next != null && (next == Long.MAX_VALUE || now - next < 0)) {
      return;
    }
    Path link = checkpointDirectory.resolve(LINK_FILE);
    try {
      String directory = ChannelLayout.required(ChannelLayout.read(link), "directory", link);
      watch(Path.of(directory));
      LINKS_CHECKED.put(checkpointDirectory, Long.MAX_VALUE);
    } catch (NoSuchFileException e) {
      LINKS_CHECKED.put(checkpointDirectory, now + FULL_SCAN_NANOS);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot follow the fault channel link {}: {}", link, e.toString());
      LINKS_CHECKED.put(checkpointDirectory, now + FULL_SCAN_NANOS);
    }
  }

  /** Whether this JVM watches {@code directory}. */
  static boolean watching(Path directory) {
    return WATCHERS.containsKey(directory.toAbsolutePath().normalize());
  }

  /** Stops every watcher of this JVM and forgets the links: between unit tests. */
  static void stopAll() throws InterruptedException {
    for (FaultChannelWatcher watcher : List.copyOf(WATCHERS.values())) {
      watcher.running = false;
      watcher.thread.interrupt();
      watcher.thread.join(TimeUnit.SECONDS.toMillis(5));
    }
    WATCHERS.clear();
    LINKS_CHECKED.clear();
  }

  private void run() {
    while (running) {
      try {
        Thread.sleep(POLL_MILLIS);
        scan(false);
      } catch (InterruptedException e) {
        if (!running) {
          return;
        }
      } catch (RuntimeException e) {
        // A watcher that dies silently disarms nothing and ends no stall: log and go on.
        LOG.warn("Fault channel {}: scan failed: {}", layout.root(), e.toString(), e);
      }
    }
  }

  /** One look at the directory; cheap (two stat calls) when nothing changed. */
  private synchronized void scan(boolean full) {
    try {
      FileTime arm = Files.getLastModifiedTime(layout.armDirectory());
      FileTime ping = Files.getLastModifiedTime(layout.pingDirectory());
      FileTime gate = Files.getLastModifiedTime(layout.gateDirectory());
      long now = System.nanoTime();
      // Directory times may be coarse (a second on some network file systems): list anyway now
      // and then.
      if (!full
          && arm.equals(armSeen)
          && ping.equals(pingSeen)
          && gate.equals(gateSeen)
          && now - lastFullScan < FULL_SCAN_NANOS) {
        return;
      }
      armSeen = arm;
      pingSeen = ping;
      gateSeen = gate;
      lastFullScan = now;
      missingReported = false;
      scanArmings();
      openGates();
      answerPings();
    } catch (NoSuchFileException e) {
      if (!missingReported) {
        missingReported = true;
        LOG.warn(
            "Fault channel {} is not there for {}: no fault point of this process can be armed"
                + " (the directory must be on a file system the lab and every process share)",
            layout.root(),
            ProcessIdentity.name());
      }
    } catch (IOException e) {
      LOG.warn("Fault channel {}: cannot read it: {}", layout.root(), e.toString());
    }
  }

  private void scanArmings() throws IOException {
    List<ChannelLayout.ArmEntry> entries = layout.armEntries();
    Set<String> present = new HashSet<>();
    entries.forEach(entry -> present.add(entry.key()));
    // Removals first: a disarm and a re-arm of the same id can fall between two scans.
    learnt
        .entrySet()
        .removeIf(
            known -> {
              if (present.contains(known.getKey())) {
                return false;
              }
              FaultSwitchboard.disarm(known.getValue());
              return true;
            });
    refused.retainAll(present);
    for (ChannelLayout.ArmEntry entry : entries) {
      if (!learnt.containsKey(entry.key()) && !refused.contains(entry.key())) {
        learn(entry);
      }
    }
  }

  private void learn(ChannelLayout.ArmEntry entry) {
    try {
      Properties arming = ChannelLayout.read(entry.file());
      String faultId = ChannelLayout.required(arming, "fault-id", entry.file());
      if (!faultId.equals(entry.faultId())) {
        throw new IllegalArgumentException(
            entry.file().getFileName() + " names fault " + faultId + ", its file name another");
      }
      String stall = arming.getProperty("stall-limit");
      FaultSwitchboard.armClaimed(
          ChannelLayout.required(arming, "point", entry.file()),
          FaultPosition.parse(ChannelLayout.required(arming, "position", entry.file())),
          ChannelLayout.required(arming, "action", entry.file()),
          faultId,
          stall == null ? FaultSwitchboard.DEFAULT_STALL_LIMIT : Duration.parse(stall.strip()),
          new ChannelClaim(layout, faultId, entry.token()));
      learnt.put(entry.key(), faultId);
    } catch (NoSuchFileException e) {
      // Disarmed between the listing and the read: nothing to arm.
    } catch (IOException | RuntimeException e) {
      refuse(entry, e);
    }
  }

  /** A malformed or unarmable arm file is reported (logged and written back), never fatal. */
  private void refuse(ChannelLayout.ArmEntry entry, Exception problem) {
    refused.add(entry.key());
    String reason = problem.getMessage() == null ? problem.toString() : problem.getMessage();
    LOG.warn(
        "Fault channel {}: cannot arm {}: {}", layout.root(), entry.file().getFileName(), reason);
    Properties rejection = new Properties();
    rejection.setProperty("fault-id", entry.faultId());
    rejection.setProperty("file", entry.file().getFileName().toString());
    rejection.setProperty("process", ProcessIdentity.name());
    rejection.setProperty("reason", reason);
    try {
      ChannelLayout.writeAtomically(
          layout.rejectedFile(entry.faultId(), entry.token(), ProcessIdentity.name()), rejection);
    } catch (IOException e) {
      LOG.warn("Fault channel {}: cannot report the rejection: {}", layout.root(), e.toString());
    }
  }

  /**
   * Opens in this JVM the start gates the lab opened. The lab writes a gate after the arm files of
   * the faults placed at the job's start, but the arm directory was listed before the gates: list
   * it again before a new gate lets the job go, so that those faults count from the first element.
   */
  private void openGates() throws IOException {
    List<String> opened = layout.openGates();
    opened.removeAll(gatesOpened);
    if (opened.isEmpty()) {
      return;
    }
    scanArmings();
    for (String gate : opened) {
      StartGates.open(gate);
      gatesOpened.add(gate);
    }
  }

  private void answerPings() throws IOException {
    Set<String> pings = new HashSet<>();
    for (Path file : ChannelLayout.list(layout.pingDirectory())) {
      String name = file.getFileName().toString();
      if (name.endsWith(".ping") && !name.startsWith(".")) {
        pings.add(name.substring(0, name.length() - ".ping".length()));
      }
    }
    answered.retainAll(pings);
    for (String ping : pings) {
      if (answered.add(ping)) {
        String answer = ProcessIdentity.name() + " " + ProcessIdentity.role();
        // Atomically: the lab reads the answer as soon as the file is there.
        ChannelLayout.writeAtomically(
            layout.pongFile(ping, answer), answer.getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
