package io.reliabilitylab.process;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes this JVM started, recorded so that none outlives the lab.
 *
 * <p>Each process gets a pid file {@code <pidDirectory>/<role>.pid} and a marker in the lab-wide
 * registry {@code <java.io.tmpdir>/srl-processes-<user>/<pid>.json} naming its owner (this JVM). A
 * shutdown hook stops every process not closed before (normal exit, Ctrl-C, SIGTERM); a JVM killed
 * with SIGKILL runs no hook, so {@link #cleanUpStale()} (called at the first start in every JVM)
 * kills what such a JVM left behind.
 *
 * <pre>{@code
 * try (LabProcess zk = LabProcesses.start("zookeeper", new ProcessBuilder(command), log, pids)) {
 *   zk.pause();
 *   zk.resume();
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class LabProcesses {

  private static final Logger LOG = LoggerFactory.getLogger(LabProcesses.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private static final Set<LabProcess> OPEN = ConcurrentHashMap.newKeySet();
  private static volatile boolean cleanedUp;

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(LabProcesses::closeAllOpen, "srl-lab-processes-stop"));
  }

  private LabProcesses() {}

  /**
   * Starts {@code command} as a process with role {@code role} (e.g. "flink-taskmanager-2"), stdout
   * and stderr appended to {@code log}; writes its pid file and registry marker. The process is
   * stopped by a JVM shutdown hook unless closed before.
   */
  public static LabProcess start(String role, ProcessBuilder command, Path log, Path pidDirectory)
      throws IOException {
    return start(role, command, log, pidDirectory, StopSignal.TERM);
  }

  /**
   * As {@link #start(String, ProcessBuilder, Path, Path)}, stopped politely with {@code stopSignal}
   * rather than SIGTERM.
   */
  public static LabProcess start(
      String role, ProcessBuilder command, Path log, Path pidDirectory, StopSignal stopSignal)
      throws IOException {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(stopSignal, "stopSignal");
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(pidDirectory, "pidDirectory");
    if (!role.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "A process role is letters, digits, '.', '_' or '-' (it names the pid file), got '"
              + role
              + "'");
    }
    if (!cleanedUp) {
      cleanUpStale();
    }
    Path logFile = log.toAbsolutePath();
    Files.createDirectories(logFile.getParent());
    Files.createDirectories(pidDirectory);
    command.redirectErrorStream(true);
    command.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    Process process = command.start();
    Path pidFile = pidDirectory.toAbsolutePath().resolve(role + ".pid");
    ProcessHandle owner = ProcessHandle.current();
    ProcessMarker marker =
        new ProcessMarker(
            owner.pid(),
            startOf(owner),
            process.pid(),
            startOf(process.toHandle()),
            role,
            pidFile.toString());
    Path markerFile;
    try {
      writeAtomically(pidFile, Long.toString(process.pid()));
      markerFile = writeMarker(marker);
    } catch (IOException | UncheckedIOException e) {
      process.destroyForcibly();
      Files.deleteIfExists(pidFile);
      throw e;
    }
    LabProcess started = new LabProcess(role, process, logFile, pidFile, markerFile, stopSignal);
    OPEN.add(started);
    LOG.info("Started {} as pid {}, log {}", role, process.pid(), logFile);
    return started;
  }

  /**
   * Kills every recorded process whose owner JVM is gone (a SIGKILLed lab) and deletes its marker
   * and pid file; returns their pids. Start instants guard against pid reuse: a process whose start
   * differs from the recorded one is another program and is left alone.
   */
  public static synchronized List<Long> cleanUpStale() {
    cleanedUp = true;
    Path registry = registryDirectory();
    List<Long> killed = new ArrayList<>();
    if (!Files.isDirectory(registry)) {
      return killed;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(registry, "*.json")) {
      for (Path file : files) {
        cleanUp(file, killed);
      }
    } catch (IOException e) {
      LOG.warn("Cannot list the lab's process markers in {}: {}", registry, e.toString());
    }
    return killed;
  }

  /** {@code <tmpdir>/srl-processes-<user>}: per user, as {@code /tmp} may be shared. */
  public static Path registryDirectory() {
    String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    return Path.of(System.getProperty("java.io.tmpdir")).resolve("srl-processes-" + user);
  }

  /** The processes this JVM started and has not closed yet. */
  public static List<LabProcess> open() {
    return List.copyOf(OPEN);
  }

  private static void cleanUp(Path file, List<Long> killed) {
    ProcessMarker marker;
    try {
      marker = JSON.readValue(file.toFile(), ProcessMarker.class);
    } catch (IOException e) {
      // A marker being written is a .tmp file: an unreadable .json is damaged, not in progress.
      LOG.warn("Deleting the unreadable process marker {}: {}", file, e.toString());
      deleteQuietly(file);
      return;
    }
    if (isAlive(marker.ownerPid(), marker.ownerStart())) {
      return;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(marker.pid());
    if (process.isPresent() && process.get().isAlive() && isSame(process.get(), marker.start())) {
      LOG.warn(
          "Killing {} (pid {}): the JVM that started it (pid {}) is gone",
          marker.role(),
          marker.pid(),
          marker.ownerPid());
      signal(marker.pid(), "CONT");
      process.get().destroyForcibly();
      awaitExit(process.get(), STOP_GRACE);
      killed.add(marker.pid());
    }
    deleteQuietly(Path.of(marker.pidFile()));
    deleteQuietly(file);
  }

  private static boolean isAlive(long pid, @Nullable String start) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    return handle.isPresent() && handle.get().isAlive() && isSame(handle.get(), start);
  }

  /** Whether a live process is the recorded one; an unknown start instant counts as the same. */
  private static boolean isSame(ProcessHandle process, @Nullable String recordedStart) {
    String actual = startOf(process);
    return recordedStart == null || actual == null || recordedStart.equals(actual);
  }

  static Path writeMarker(ProcessMarker marker) throws IOException {
    Path registry = Files.createDirectories(registryDirectory());
    Path file = registry.resolve(marker.pid() + ".json");
    writeAtomically(file, JSON.writeValueAsString(marker));
    return file;
  }

  private static void writeAtomically(Path file, String content) throws IOException {
    Path partial = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(partial, content);
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static void forget(LabProcess process) {
    OPEN.remove(process);
  }

  /** Stops every open process at once, as {@link #closeAll(Collection)} does. */
  static void closeAllOpen() {
    closeAll(List.copyOf(OPEN));
  }

  /**
   * Stops the processes at once: SIGTERM to all (SIGCONT first to a paused one), then waits for
   * each, then SIGKILL what is left; each as {@link LabProcess#close()}.
   */
  public static void closeAll(Collection<LabProcess> processes) {
    for (LabProcess process : processes) {
      process.terminate();
    }
    for (LabProcess process : processes) {
      process.close();
    }
  }

  /** Sends a signal by name (e.g. STOP, CONT) with the system's {@code kill}. */
  static boolean signal(long pid, String name) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        return false;
      }
      return kill.exitValue() == 0;
    } catch (IOException e) {
      LOG.warn("Cannot send SIG{} to pid {}: {}", name, pid, e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  static boolean awaitExit(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  static @Nullable String startOf(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toString).orElse(null);
  }

  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("Cannot delete {}: {}", file, e.toString());
    }
  }
}
