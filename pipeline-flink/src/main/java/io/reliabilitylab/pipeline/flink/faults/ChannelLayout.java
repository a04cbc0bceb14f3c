package io.reliabilitylab.pipeline.flink.faults;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The files of a fault channel's control directory, shared by the lab side ({@link FaultChannel})
 * and the job side ({@link FaultChannelWatcher}):
 *
 * <pre>
 * arm/&lt;fault id&gt;.&lt;token&gt;.arm      an arming (written by the lab, atomically; removed to disarm)
 * claims/&lt;fault id&gt;.&lt;token&gt;.claim  the create-new marker of the JVM that fired it
 * firings/&lt;fault id&gt;.firing         how it fired (written by that JVM, atomically)
 * pings/&lt;ping&gt;.ping                 a round trip asked by the lab
 * pongs/&lt;ping&gt;.&lt;process&gt;.pong      one answer per watching JVM
 * rejected/&lt;fault id&gt;.&lt;token&gt;.&lt;process&gt;.txt  an arm file a JVM could not arm, and why
 * gates/&lt;gate&gt;.open                 a job's start gate, opened (written by the lab once it armed
 *                                    the faults placed at the job's start)
 * </pre>
 *
 * A fault id is URL-encoded in file names (dots too), so a name splits at its first dot. The token
 * tells one arming of a fault id from a later one: a claim is per arming, a re-arming can fire.
 */
final class ChannelLayout {

  static final String ARM_SUFFIX = ".arm";
  static final String PONG_SUFFIX = ".pong";
  static final String GATE_SUFFIX = ".open";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path root;

  ChannelLayout(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  Path root() {
    return root;
  }

  Path armDirectory() {
    return root.resolve("arm");
  }

  Path claimDirectory() {
    return root.resolve("claims");
  }

  Path firingDirectory() {
    return root.resolve("firings");
  }

  Path pingDirectory() {
    return root.resolve("pings");
  }

  Path pongDirectory() {
    return root.resolve("pongs");
  }

  Path rejectedDirectory() {
    return root.resolve("rejected");
  }

  Path gateDirectory() {
    return root.resolve("gates");
  }

  List<Path> directories() {
    return List.of(
        armDirectory(),
        claimDirectory(),
        firingDirectory(),
        pingDirectory(),
        pongDirectory(),
        rejectedDirectory(),
        gateDirectory());
  }

  Path armFile(String faultId, String token) {
    return armDirectory().resolve(encode(faultId) + "." + token + ARM_SUFFIX);
  }

  Path claimFile(String faultId, String token) {
    return claimDirectory().resolve(encode(faultId) + "." + token + ".claim");
  }

  Path firingFile(String faultId) {
    return firingDirectory().resolve(encode(faultId) + ".firing");
  }

  Path gateFile(String gate) {
    return gateDirectory().resolve(encode(gate) + GATE_SUFFIX);
  }

  /** The start gates opened in this channel. */
  List<String> openGates() throws IOException {
    List<String> gates = new ArrayList<>();
    for (Path file : list(gateDirectory())) {
      String name = file.getFileName().toString();
      if (name.endsWith(GATE_SUFFIX) && !name.startsWith(".")) {
        gates.add(decode(name.substring(0, name.length() - GATE_SUFFIX.length())));
      }
    }
    return gates;
  }

  Path pingFile(String ping) {
    return pingDirectory().resolve(ping + ".ping");
  }

  Path pongFile(String ping, String answer) {
    return pongDirectory().resolve(ping + "." + encode(answer) + PONG_SUFFIX);
  }

  Path rejectedFile(String faultId, String token, String process) {
    return rejectedDirectory()
        .resolve(encode(faultId) + "." + token + "." + encode(process) + ".txt");
  }

  /** One arm file: the fault id and token its name carries. */
  record ArmEntry(String faultId, String token, Path file) {
    /** The key a watcher knows this arming by. */
    String key() {
      return file.getFileName().toString();
    }
  }

  /** The arm files present; names that are not arm files (temporary files) are skipped. */
  List<ArmEntry> armEntries() throws IOException {
    List<ArmEntry> entries = new ArrayList<>();
    for (Path file : list(armDirectory())) {
      String name = file.getFileName().toString();
      int dot = name.indexOf('.');
      if (name.startsWith(".") || !name.endsWith(ARM_SUFFIX) || dot < 0) {
        continue;
      }
      String token = name.substring(dot + 1, name.length() - ARM_SUFFIX.length());
      entries.add(new ArmEntry(decode(name.substring(0, dot)), token, file));
    }
    return entries;
  }

  /** The files of a directory; none if it does not exist (yet). */
  static List<Path> list(Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(files::add);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    return files;
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace(".", "%2E").replace("*", "%2A");
  }

  static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  static String newToken() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Writes {@code properties} to {@code target} through a temporary file in the same directory and
   * an atomic move, so a reader sees the whole file or none.
   */
  static void writeAtomically(Path target, Properties properties) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    properties.store(bytes, null);
    writeAtomically(target, bytes.toByteArray());
  }

  /** Writes {@code content} to {@code target} atomically, as the properties above. */
  static void writeAtomically(Path target, byte[] content) throws IOException {
    Path temporary = target.resolveSibling("." + target.getFileName() + "." + newToken() + ".tmp");
    try {
      Files.write(temporary, content);
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  static Properties read(Path file) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    }
    return properties;
  }

  /** A property that must be there: a missing one names the key and the file. */
  static String required(Properties properties, String key, Path file) {
    String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(file.getFileName() + " has no '" + key + "'");
    }
    return value.strip();
  }

  static Properties firingProperties(FaultFiring firing, String token) {
    Properties properties = new Properties();
    properties.setProperty("fault-id", firing.faultId());
    properties.setProperty("token", token);
    properties.setProperty("point", firing.point());
    properties.setProperty("position", firing.position().text());
    properties.setProperty("action", firing.action().name());
    properties.setProperty("at", firing.at().toString());
    if (firing.checkpointId() != null) {
      properties.setProperty("checkpoint-id", Long.toString(firing.checkpointId()));
    }
    properties.setProperty("process", firing.process());
    return properties;
  }

  static FaultFiring firingOf(Properties properties, Path file) {
    String checkpoint = properties.getProperty("checkpoint-id");
    @Nullable Long checkpointId = checkpoint == null ? null : Long.valueOf(checkpoint.strip());
    return new FaultFiring(
        required(properties, "fault-id", file),
        required(properties, "point", file),
        FaultPosition.parse(required(properties, "position", file)),
        FaultAction.valueOf(required(properties, "action", file)),
        Instant.parse(required(properties, "at", file)),
        checkpointId,
        required(properties, "process", file));
  }
}
