package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.examples.packaging.PackagedLab.Outcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab SIGKILLed in the middle of a suite: the records it wrote read back and render, none is
 * half written, and the next run stops the database the killed lab left and runs clean.
 */
class KilledLabIT {

  private static final Duration DEADLINE = Duration.ofSeconds(120);

  @TempDir Path workingDirectory;

  @Test
  void aKilledRunLeavesReadableRecordsAndTheNextRunCleansUp() throws Exception {
    Path runs = workingDirectory.resolve("runs");
    Path console = workingDirectory.resolve("killed-console.txt");
    Process lab =
        new ProcessBuilder(
                PackagedLab.currentJava().toString(),
                "-jar",
                PackagedLab.jar().toString(),
                "run",
                "--faults",
                "task-failure",
                "--events",
                "1000",
                "--out",
                runs.toString())
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(console.toFile())
            .start();
    List<ProcessHandle> children;
    try {
      // Killed once the baseline's record is written (its console line) and the first fault
      // scenario runs.
      awaitLine(lab, console, "] baseline ");
      children = lab.toHandle().descendants().toList();
      assertThat(children).as("the embedded database the lab started").isNotEmpty();
    } finally {
      lab.destroyForcibly(); // SIGKILL: no shutdown hook runs
      lab.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(lab.exitValue()).isEqualTo(137);

    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.list(runs)) {
      List<Path> records = files.filter(f -> f.toString().endsWith(".json")).toList();
      assertThat(records).as("the records written before the kill").isNotEmpty();
      for (Path record : records) {
        assertThat(json.readTree(record.toFile()).path("run_id").asText())
            .as("%s reads back whole", record)
            .isNotEmpty();
      }
    }
    Outcome report =
        PackagedLab.run(PackagedLab.currentJava(), workingDirectory, "report", runs.toString());
    assertThat(report.exitCode()).as("report: %s %s", report.out(), report.err()).isZero();

    Outcome next =
        PackagedLab.run(
            DEADLINE,
            PackagedLab.currentJava(),
            workingDirectory,
            "run",
            "--faults",
            "none",
            "--events",
            "200",
            "--out",
            workingDirectory.resolve("after").toString());
    assertThat(next.exitCode()).as("the next run: %s%n%s", next.out(), next.err()).isZero();
    assertThat(children)
        .as("what the killed lab started is gone once the next run started")
        .noneMatch(ProcessHandle::isAlive);
  }

  private static void awaitLine(Process lab, Path console, String line) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.readString(console, StandardCharsets.UTF_8).contains(line)) {
        return;
      }
      assertThat(lab.isAlive())
          .as("the lab is still running; its console: %s", Files.readString(console))
          .isTrue();
      Thread.sleep(200);
    }
    throw new AssertionError(
        "no '" + line + "' within " + DEADLINE + ": " + Files.readString(console));
  }
}
