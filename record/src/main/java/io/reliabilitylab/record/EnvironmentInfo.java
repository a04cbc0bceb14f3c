package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Where a run ran: the machine, the operating system and the JVM, captured at the start of the run
 * so that timings and verdicts can be read in context. Fields that cannot be read on this platform
 * are {@code null}, never guessed.
 *
 * @param os the operating system's name, e.g. {@code Linux}
 * @param osVersion its version as the JVM reports it (the kernel release on Linux)
 * @param distribution the distribution's name from {@code /etc/os-release}, e.g. {@code Ubuntu
 *     24.04.4 LTS}
 * @param kernel the kernel release from {@code /proc/sys/kernel/osrelease}
 * @param architecture e.g. {@code amd64}
 * @param cpuCount logical processors available to the JVM
 * @param cpuModel from {@code /proc/cpuinfo}
 * @param memoryBytes physical memory
 * @param javaVersion e.g. {@code 17.0.12}
 * @param javaVendor e.g. {@code Eclipse Adoptium}
 * @param javaVm the VM's name and version
 * @param maxHeapBytes the JVM's maximum heap
 * @param hostname the machine's name
 * @param loadAverage the 1, 5 and 15 minute load averages at capture (fewer where unavailable)
 * @param execution one line on how the lab ran, e.g. {@code embedded: MiniCluster, in-process
 *     Kafka, local Hadoop catalog}
 * @param dockerAvailable whether a Docker daemon was reachable
 * @param dockerVersion the Docker daemon's version, when one was reachable and said
 */
@API(status = STABLE)
public record EnvironmentInfo(
    String os,
    String osVersion,
    @Nullable String distribution,
    @Nullable String kernel,
    String architecture,
    int cpuCount,
    @Nullable String cpuModel,
    @Nullable Long memoryBytes,
    String javaVersion,
    String javaVendor,
    String javaVm,
    long maxHeapBytes,
    @Nullable String hostname,
    List<Double> loadAverage,
    String execution,
    boolean dockerAvailable,
    @Nullable String dockerVersion) {

  public EnvironmentInfo {
    Objects.requireNonNull(os, "os");
    Objects.requireNonNull(osVersion, "osVersion");
    Objects.requireNonNull(architecture, "architecture");
    Objects.requireNonNull(javaVersion, "javaVersion");
    Objects.requireNonNull(javaVendor, "javaVendor");
    Objects.requireNonNull(javaVm, "javaVm");
    loadAverage = List.copyOf(loadAverage);
    Objects.requireNonNull(execution, "execution");
  }

  /**
   * Captures this machine and JVM.
   *
   * @param execution one line on how the lab runs (embedded, external endpoints, ...)
   * @param dockerAvailable whether the caller found a Docker daemon
   */
  public static EnvironmentInfo capture(String execution, boolean dockerAvailable) {
    return capture(execution, dockerAvailable, null);
  }

  /**
   * Captures this machine and JVM, with the Docker daemon's version as the caller found it.
   *
   * @param execution one line on how the lab runs (embedded, external endpoints, ...)
   * @param dockerAvailable whether the caller found a Docker daemon
   * @param dockerVersion its version, if known
   */
  public static EnvironmentInfo capture(
      String execution, boolean dockerAvailable, @Nullable String dockerVersion) {
    Objects.requireNonNull(execution, "execution");
    Runtime runtime = Runtime.getRuntime();
    return new EnvironmentInfo(
        System.getProperty("os.name", "unknown"),
        System.getProperty("os.version", "unknown"),
        readFile("/etc/os-release").map(EnvironmentInfo::parseOsReleaseName).orElse(null),
        readFile("/proc/sys/kernel/osrelease").map(String::strip).orElse(null),
        System.getProperty("os.arch", "unknown"),
        runtime.availableProcessors(),
        readFile("/proc/cpuinfo").map(EnvironmentInfo::parseCpuModel).orElse(null),
        totalMemory(),
        System.getProperty("java.version", "unknown"),
        System.getProperty("java.vendor", "unknown"),
        System.getProperty("java.vm.name", "unknown")
            + " "
            + System.getProperty("java.vm.version", ""),
        runtime.maxMemory(),
        readHostname(),
        readLoadAverage(),
        execution,
        dockerAvailable,
        dockerVersion);
  }

  /** The {@code model name} (x86) or {@code Model} / {@code Hardware} (ARM) line's value. */
  static @Nullable String parseCpuModel(String cpuinfo) {
    for (String key : List.of("model name", "Model", "Hardware", "cpu model")) {
      for (String line : cpuinfo.split("\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
          String value = line.substring(colon + 1).strip();
          if (!value.isEmpty()) {
            return value;
          }
        }
      }
    }
    return null;
  }

  /** {@code PRETTY_NAME}, else {@code NAME} and {@code VERSION}, unquoted. */
  static @Nullable String parseOsReleaseName(String osRelease) {
    String pretty = null;
    String name = null;
    String version = null;
    for (String line : osRelease.split("\n")) {
      int eq = line.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = line.substring(0, eq).strip();
      String value = line.substring(eq + 1).strip().replaceAll("^[\"']|[\"']$", "");
      switch (key) {
        case "PRETTY_NAME" -> pretty = value;
        case "NAME" -> name = value;
        case "VERSION" -> version = value;
        default -> {}
      }
    }
    if (pretty != null && !pretty.isEmpty()) {
      return pretty;
    }
    if (name == null) {
      return null;
    }
    return version == null ? name : name + " " + version;
  }

  /** The first three fields of {@code /proc/loadavg}. */
  static List<Double> parseLoadAverage(String loadavg) {
    String[] fields = loadavg.strip().split("\\s+");
    List<Double> values = new ArrayList<>(3);
    for (int i = 0; i < Math.min(3, fields.length); i++) {
      try {
        values.add(Double.parseDouble(fields[i]));
      } catch (NumberFormatException e) {
        return List.of();
      }
    }
    return List.copyOf(values);
  }

  private static List<Double> readLoadAverage() {
    List<Double> fromProc =
        readFile("/proc/loadavg").map(EnvironmentInfo::parseLoadAverage).orElse(List.of());
    if (!fromProc.isEmpty()) {
      return fromProc;
    }
    double oneMinute = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return oneMinute < 0 ? List.of() : List.of(oneMinute);
  }

  private static @Nullable Long totalMemory() {
    OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean sun) {
      long total = sun.getTotalMemorySize();
      return total > 0 ? total : null;
    }
    return null;
  }

  private static @Nullable String readHostname() {
    String fromEnvironment = System.getenv("HOSTNAME");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment.strip();
    }
    var fromFile = readFile("/etc/hostname").map(String::strip).filter(name -> !name.isEmpty());
    if (fromFile.isPresent()) {
      return fromFile.get();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return null;
    }
  }

  private static Optional<String> readFile(String path) {
    try {
      Path file = Path.of(path);
      return Files.isReadable(file)
          ? Optional.of(Files.readString(file, StandardCharsets.UTF_8))
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      // An unreadable file means the field is unknown on this platform, not an error.
      return Optional.empty();
    }
  }
}
