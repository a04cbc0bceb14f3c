package io.reliabilitylab.source.postgres;

import java.io.IOException;
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
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded servers' directories, {@code <java.io.tmpdir>/srl-postgres-*}: each names the JVM
 * that owns it in an {@value #OWNER_FILE} file, so that a later run deletes what a killed lab left
 * (its server process is killed first, by the lab's process registry and by its {@code
 * postmaster.pid}).
 */
final class ServerDirectories {

  static final String PREFIX = "srl-postgres-";
  static final String OWNER_FILE = "owner";

  private static final Logger LOG = LoggerFactory.getLogger(ServerDirectories.class);

  /** A directory without an owner file is left alone this long: its JVM may be creating it. */
  private static final Duration UNCLAIMED_AGE = Duration.ofMinutes(10);

  private ServerDirectories() {}

  static Path tempRoot() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** A new server directory owned by this JVM. */
  static Path create() throws IOException {
    Path directory = Files.createTempDirectory(tempRoot(), PREFIX);
    ProcessHandle self = ProcessHandle.current();
    Files.writeString(
        directory.resolve(OWNER_FILE),
        self.pid() + "\n" + startOf(self).orElse(""),
        StandardCharsets.US_ASCII);
    return directory;
  }

  /**
   * Deletes the directories whose owner JVM is gone, after killing a server still running from one;
   * returns the directories deleted.
   */
  static synchronized List<Path> cleanUpStale() {
    List<Path> deleted = new ArrayList<>();
    try (DirectoryStream<Path> directories = Files.newDirectoryStream(tempRoot(), PREFIX + "*")) {
      for (Path directory : directories) {
        if (Files.isDirectory(directory) && isAbandoned(directory)) {
          killServerOf(directory);
          LOG.warn("Deleting the embedded PostgreSQL directory {} left by a killed run", directory);
          if (deleteRecursively(directory)) {
            deleted.add(directory);
          }
        }
      }
    } catch (IOException e) {
      LOG.debug("Cannot scan {} for left-over server directories: {}", tempRoot(), e.toString());
    }
    return deleted;
  }

  private static boolean isAbandoned(Path directory) throws IOException {
    Path owner = directory.resolve(OWNER_FILE);
    if (!Files.exists(owner)) {
      Instant modified = Files.getLastModifiedTime(directory).toInstant();
      return modified.isBefore(Instant.now().minus(UNCLAIMED_AGE));
    }
    List<String> lines = Files.readAllLines(owner, StandardCharsets.US_ASCII);
    try {
      long pid = Long.parseLong(lines.get(0).trim());
      String start = lines.size() > 1 ? lines.get(1).trim() : "";
      return !isAlive(pid, start);
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return true;
    }
  }

  /** The postmaster named by {@code data/postmaster.pid}, if it still runs from this directory. */
  private static void killServerOf(Path directory) {
    serverOf(directory)
        .ifPresent(
            server -> {
              LOG.warn(
                  "Killing embedded PostgreSQL pid {}: the JVM that started it is gone",
                  server.pid());
              server.destroyForcibly();
              server.onExit().join();
            });
  }

  static Optional<ProcessHandle> serverOf(Path directory) {
    Path pidFile = directory.resolve("data").resolve("postmaster.pid");
    try {
      if (!Files.exists(pidFile)) {
        return Optional.empty();
      }
      long pid =
          Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim());
      String prefix = directory.toAbsolutePath() + "/";
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .filter(
              p ->
                  p.info().arguments().stream()
                      .flatMap(java.util.Arrays::stream)
                      .anyMatch(argument -> argument.startsWith(prefix)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean isAlive(long pid, String start) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    Optional<String> actual = startOf(handle.get());
    return start.isEmpty() || actual.isEmpty() || start.equals(actual.get());
  }

  private static Optional<String> startOf(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toString);
  }

  /** Deletes a directory tree; returns whether it is gone. */
  static boolean deleteRecursively(Path directory) {
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e)
                throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      LOG.warn("Cannot delete {}: {}; delete it by hand", directory, e.toString());
    }
    return !Files.exists(directory);
  }
}
