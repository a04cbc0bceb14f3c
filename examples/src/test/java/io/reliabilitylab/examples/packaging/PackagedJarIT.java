package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.examples.packaging.PackagedLab.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged {@code reliability-lab.jar} the way the README does, in a fresh JVM started
 * from another directory, without JVM flags.
 */
class PackagedJarIT {

  static final List<String> BUILT_IN_CHECKS =
      List.of(
          "snapshot-diff",
          "event-id-audit",
          "changelog-completeness",
          "no-duplicate-keys",
          "current-changelog-consistency",
          "offset-checkpoint-snapshot-linkage",
          "dlq-integrity");

  private static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

  @TempDir Path workingDirectory;

  @Test
  void listNamesEveryBuiltInCheck() throws Exception {
    Outcome outcome = PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "list");
    assertThat(outcome.exitCode()).as("exit code; stderr: %s", outcome.err()).isZero();
    assertThat(outcome.out()).contains("Pipelines", "Faults", "Checks (");
    for (String check : BUILT_IN_CHECKS) {
      assertThat(outcome.out()).containsPattern("(?m)^  " + check + " +\\S");
    }
  }

  @Test
  void listNamesBothPipelinesAndTheBrokerFaults() throws Exception {
    Outcome outcome = PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "list");
    assertThat(outcome.exitCode()).as("exit code; stderr: %s", outcome.err()).isZero();
    for (String name :
        List.of("direct", "broker", "poison-message", "broker-restart", "duplicate-redelivery")) {
      assertThat(outcome.out()).containsPattern("(?m)^  " + name + " +\\S");
    }
  }

  /**
   * Both pipelines share the jar's one class path (Flink CDC with its Debezium 1.9 relocated,
   * Debezium 3.5, kafka-clients 4.1.1): the broker pipeline runs from it end to end.
   */
  @Test
  void theBrokerPipelineRunsFromThePackagedJar() throws Exception {
    Outcome outcome =
        PackagedLab.run(
            PackagedLab.currentJava(),
            workingDirectory,
            "run",
            "--pipeline",
            "broker",
            "--faults",
            "none",
            "--events",
            "200",
            "--out",
            workingDirectory.resolve("runs").toString());
    assertThat(outcome.exitCode())
        .as("exit code; stdout: %s%nstderr: %s", outcome.out(), outcome.err())
        .isZero();
    assertThat(outcome.out()).contains("offset-checkpoint-snapshot-linkage", "PASSED");
  }

  @Test
  void listAsJsonIsCleanJsonOnStdout() throws Exception {
    Outcome outcome =
        PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "list", "--json");
    assertThat(outcome.exitCode()).as("exit code; stderr: %s", outcome.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(outcome.out());
    assertThat(json.path("checks").findValuesAsText("name")).containsAll(BUILT_IN_CHECKS);
    assertThat(json.path("problems").isEmpty()).isTrue();
  }

  @Test
  void helpWorks() throws Exception {
    Outcome outcome = PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "--help");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("Usage: reliability-lab", "Commands:", "Exit codes:");
    assertThat(outcome.err()).isEmpty();
  }

  @Test
  void aBadArgumentIsOneLineAndExitCode2() throws Exception {
    Outcome outcome =
        PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "list", "--no-such-option");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.out()).isEmpty();
    assertThat(outcome.errLines())
        .singleElement()
        .asString()
        .contains("unknown option '--no-such-option'")
        .contains("--help");
  }

  @Test
  void anUnsupportedJavaIsRefusedInOneLine() throws Exception {
    assumeTrue(Files.isExecutable(JAVA_25), JAVA_25 + " is not installed");
    Outcome outcome = PackagedLab.run(JAVA_25, workingDirectory, "list");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.out()).isEmpty();
    assertThat(outcome.errLines())
        .singleElement()
        .asString()
        .startsWith("reliability-lab needs Java 17 to 21 but was started with Java 25")
        .contains("temurin-25");
  }

  @Test
  void theManifestCarriesTheLauncherTheClassPathAndTheJvmFlags() throws Exception {
    try (JarFile jar = new JarFile(PackagedLab.jar().toFile())) {
      Manifest manifest = jar.getManifest();
      assertThat(manifest.getMainAttributes().getValue("Main-Class"))
          .isEqualTo("io.reliabilitylab.examples.launcher.Launcher");
      assertThat(manifest.getMainAttributes().getValue("Add-Opens"))
          .isEqualTo("java.base/java.util java.base/java.nio java.base/java.lang");
      assertThat(manifest.getMainAttributes().getValue("Class-Path"))
          .contains("lib/reliability-lab-harness-")
          .contains("lib/picocli-");
      // The launcher must load on old JVMs: class file major version 52 (Java 8).
      try (var launcher =
          jar.getInputStream(jar.getEntry("io/reliabilitylab/examples/launcher/Launcher.class"))) {
        byte[] header = launcher.readNBytes(8);
        assertThat(((header[6] & 0xff) << 8) | (header[7] & 0xff)).isEqualTo(52);
      }
    }
  }

  @Test
  void versionNamesTheBuiltVersion() throws Exception {
    Outcome outcome = PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "--version");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out().lines().findFirst())
        .hasValueSatisfying(
            line -> assertThat(line).matches("reliability-lab \\d+\\.\\d+\\.\\d+.*"));
  }
}
