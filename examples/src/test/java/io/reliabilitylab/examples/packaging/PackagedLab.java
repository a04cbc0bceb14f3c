package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.runner.discovery.PluginPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Where the build left the runnable lab, and how to run it as a user would. */
final class PackagedLab {

  private static final long TIMEOUT_SECONDS = 120;

  private PackagedLab() {}

  /** {@code examples/target/reliability-lab.jar}; Failsafe passes its path. */
  static Path jar() {
    Path jar = Path.of(System.getProperty("lab.jar", basedir() + "/target/reliability-lab.jar"));
    assertThat(jar).as("the packaged lab (run 'mvn package' first)").isRegularFile();
    return jar.toAbsolutePath();
  }

  /** {@code examples/target/lib}, the jar's dependencies. */
  static Path lib() {
    Path lib = Path.of(System.getProperty("lab.lib", basedir() + "/target/lib"));
    assertThat(lib).as("the packaged lab's lib directory").isDirectory();
    return lib.toAbsolutePath();
  }

  /** The {@code java} of the JVM running this test: Java 17 in the build. */
  static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static String basedir() {
    return System.getProperty("basedir", ".");
  }

  /** What one {@code java -jar reliability-lab.jar ...} did. */
  record Outcome(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  /**
   * Runs {@code <java> -jar reliability-lab.jar args} from {@code workingDirectory}, with no JVM
   * flags, as the README tells users to.
   */
  static Outcome run(Path java, Path workingDirectory, String... args)
      throws IOException, InterruptedException {
    return run(Duration.ofSeconds(TIMEOUT_SECONDS), java, workingDirectory, args);
  }

  /** As {@link #run(Path, Path, String...)}, for a command that takes longer. */
  static Outcome run(Duration timeout, Path java, Path workingDirectory, String... args)
      throws IOException, InterruptedException {
    return run(new Launch(java, jar(), Map.of()), timeout, workingDirectory, args);
  }

  /**
   * How to start the lab: which {@code java}, which copy of {@code reliability-lab.jar} (a copy has
   * its own {@code plugins/} directory) and which environment variables to add.
   */
  record Launch(Path java, Path jar, Map<String, String> environment) {}

  /** Runs {@code <java> -jar <jar> args} from {@code workingDirectory} as {@code launch} says. */
  static Outcome run(Launch launch, Duration timeout, Path workingDirectory, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(launch.java().toString(), "-jar", launch.jar().toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(workingDirectory, "out", ".txt");
    Path err = Files.createTempFile(workingDirectory, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    // A JAVA_TOOL_OPTIONS of the machine would add a "Picked up ..." line to stderr.
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    // Only the plugin path a test names.
    builder.environment().remove(PluginPath.ENVIRONMENT_VARIABLE);
    builder.environment().putAll(launch.environment());
    Process process = builder.start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
    }
    return new Outcome(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
