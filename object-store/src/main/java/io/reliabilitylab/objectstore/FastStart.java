package io.reliabilitylab.objectstore;

import io.reliabilitylab.process.LabProcess;
import io.reliabilitylab.process.LabProcesses;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S3Mock's Spring Boot jar prepared to start in about half the time, once per user, jar and JVM:
 * extracted with Spring Boot's {@code -Djarmode=tools extract} (classes load from plain jars rather
 * than through the nested-jar loader), with a CDS archive of the classes a start loads ({@code
 * -XX:ArchiveClassesAtExit} during one start that exits after the context refresh, as Spring Boot's
 * documentation describes). Kept in {@code <java.io.tmpdir>/srl-s3mock-<user>/}; built under a file
 * lock, so that concurrent labs build it once; on any failure the jar runs as it is.
 */
final class FastStart {

  private static final Logger LOG = LoggerFactory.getLogger(FastStart.class);

  /** {@code -Dsrl.object-store.fast-start=false} runs the jar as it is. */
  static final String SWITCH = "srl.object-store.fast-start";

  private static final String READY = "ready";
  private static final String ARCHIVE = "s3mock.jsa";
  private static final long EXTRACT_TIMEOUT_SECONDS = 120;
  private static final long TRAINING_TIMEOUT_SECONDS = 120;

  /** How to run S3Mock: a jar for {@code -jar} and the JVM options that go with it. */
  record Launch(Path jar, List<String> jvmOptions) {
    Launch {
      jvmOptions = List.copyOf(jvmOptions);
    }

    static Launch asIs(Path jar) {
      return new Launch(jar, List.of());
    }
  }

  private FastStart() {}

  /**
   * The prepared launch for {@code jar}, preparing it first if need be; the jar as it is if off.
   */
  static Launch prepare(Path jar) {
    if (!Boolean.parseBoolean(System.getProperty(SWITCH, "true"))) {
      return Launch.asIs(jar);
    }
    try {
      return prepare(jar, cacheRoot());
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Cannot prepare S3Mock for a fast start ({}); running its jar as it is, which starts"
              + " slower",
          e.toString());
      return Launch.asIs(jar);
    }
  }

  /** {@code <tmpdir>/srl-s3mock-<user>}: per user, as {@code /tmp} may be shared. */
  static Path cacheRoot() {
    String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    return Path.of(System.getProperty("java.io.tmpdir")).resolve("srl-s3mock-" + user);
  }

  static synchronized Launch prepare(Path jar, Path root) throws IOException {
    Path directory = root.resolve("s3mock-" + key(jar));
    Launch ready = readyLaunch(jar, directory);
    if (ready != null) {
      return ready;
    }
    Files.createDirectories(root);
    try (FileChannel channel =
        FileChannel.open(
            root.resolve(directory.getFileName() + ".lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE)) {
      FileLock lock = channel.lock();
      try {
        ready = readyLaunch(jar, directory);
        return ready != null ? ready : build(jar, directory);
      } finally {
        lock.release();
      }
    }
  }

  /** The launch {@code directory} holds if it is complete (a tmp cleaner may have thinned it). */
  private static @Nullable Launch readyLaunch(Path jar, Path directory) throws IOException {
    Path marker = directory.resolve(READY);
    if (!Files.isRegularFile(marker)) {
      return null;
    }
    for (String file : Files.readAllLines(marker, StandardCharsets.UTF_8)) {
      if (!file.isBlank() && !Files.exists(directory.resolve(file))) {
        LOG.info("S3Mock's prepared copy in {} lacks {}; preparing it again", directory, file);
        Files.delete(marker);
        return null;
      }
    }
    Path extracted = extractedJar(jar, directory);
    Path archive = directory.resolve(ARCHIVE);
    return Files.isRegularFile(archive)
        ? new Launch(extracted, List.of("-XX:SharedArchiveFile=" + archive))
        : Launch.asIs(extracted);
  }

  private static Launch build(Path jar, Path directory) throws IOException {
    long started = System.nanoTime();
    deleteRecursively(directory);
    Files.createDirectories(directory);
    Path log = directory.resolve("prepare.log");
    Path extracted = extractedJar(jar, directory);
    int extract =
        run(
            "s3mock-extract",
            List.of(
                EmbeddedObjectStore.javaCommand(),
                "-Djarmode=tools",
                "-jar",
                jar.toString(),
                "extract",
                "--destination",
                directory.resolve("app").toString()),
            log,
            directory,
            EXTRACT_TIMEOUT_SECONDS);
    if (extract != 0 || !Files.isRegularFile(extracted)) {
      throw new IOException(
          "extracting " + jar + " failed (exit status " + extract + "), see " + log);
    }
    Path archive = directory.resolve(ARCHIVE);
    Path store = directory.resolve("training-store");
    int training =
        run(
            "s3mock-cds-training",
            EmbeddedObjectStore.command(
                Launch.asIs(extracted),
                List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh"),
                0,
                store,
                null),
            log,
            directory,
            TRAINING_TIMEOUT_SECONDS);
    deleteRecursively(store);
    if (training != 0 || !Files.isRegularFile(archive) || Files.size(archive) == 0) {
      LOG.warn(
          "Dumping S3Mock's class-data sharing archive failed (exit status {}), see {}; it starts"
              + " from its extracted jar without one",
          training,
          log);
      Files.deleteIfExists(archive);
    }
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(directory.resolve("app"))) {
      walk.filter(Files::isRegularFile)
          .forEach(file -> files.add(directory.relativize(file).toString()));
    }
    if (Files.isRegularFile(archive)) {
      files.add(ARCHIVE);
    }
    Files.write(directory.resolve(READY), files, StandardCharsets.UTF_8);
    LOG.info(
        "Prepared S3Mock for a fast start in {} ms: {}",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
        directory);
    Launch launch = readyLaunch(jar, directory);
    if (launch == null) {
      throw new IOException("S3Mock's prepared copy in " + directory + " is incomplete");
    }
    return launch;
  }

  /** Where {@code extract} puts the jar itself (its libraries go to {@code lib/} beside it). */
  private static Path extractedJar(Path jar, Path directory) {
    Path name = jar.getFileName();
    if (name == null) {
      throw new IllegalArgumentException("S3Mock's jar has no file name: " + jar);
    }
    return directory.resolve("app").resolve(name.toString());
  }

  /** Runs a preparation step as a lab process (so a killed lab leaves none behind). */
  private static int run(
      String role, List<String> command, Path log, Path directory, long timeoutSeconds)
      throws IOException {
    LabProcess process = LabProcesses.start(role, new ProcessBuilder(command), log, directory);
    try {
      process.handle().onExit().get(timeoutSeconds, TimeUnit.SECONDS);
      return process.exitCode().orElse(-1);
    } catch (TimeoutException e) {
      throw new IOException(role + " did not end within " + timeoutSeconds + " s, see " + log, e);
    } catch (ExecutionException e) {
      throw new IOException(role + " could not be awaited, see " + log, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for " + role, e);
    } finally {
      process.close();
    }
  }

  /**
   * What the prepared copy depends on: the jar (path, size, time) and the JVM (a CDS archive works
   * only with the JVM that dumped it).
   */
  static String key(Path jar) throws IOException {
    String identity =
        String.join(
            "\n",
            jar.toAbsolutePath().toString(),
            Long.toString(Files.size(jar)),
            Files.getLastModifiedTime(jar).toString(),
            EmbeddedObjectStore.javaCommand(),
            System.getProperty("java.vm.version", ""),
            System.getProperty("java.vm.vendor", ""));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
