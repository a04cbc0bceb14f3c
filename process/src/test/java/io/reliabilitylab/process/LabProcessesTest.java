package io.reliabilitylab.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabProcessesTest {

  @TempDir Path directory;

  private LabProcess sleeper(String role) throws IOException {
    return LabProcesses.start(
        role, new ProcessBuilder("sleep", "60"), directory.resolve(role + ".log"), directory);
  }

  /** The state letter of /proc/<pid>/stat: T when stopped by a signal. */
  private static char state(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  private static Path marker(long pid) {
    return LabProcesses.registryDirectory().resolve(pid + ".json");
  }

  @Test
  void startRecordsThePidFileAndTheMarkerAndCloseRemovesBoth() throws Exception {
    LabProcess process = sleeper("sleeper-1");
    assertThat(process.alive()).isTrue();
    assertThat(Files.readString(directory.resolve("sleeper-1.pid")))
        .isEqualTo(Long.toString(process.pid()));
    assertThat(Files.readString(marker(process.pid())))
        .contains("\"role\":\"sleeper-1\"")
        .contains("\"ownerPid\":" + ProcessHandle.current().pid());
    assertThat(LabProcesses.open()).contains(process);

    process.close();

    assertThat(process.alive()).isFalse();
    assertThat(process.exitCode()).contains(143); // SIGTERM
    assertThat(directory.resolve("sleeper-1.pid")).doesNotExist();
    assertThat(marker(process.pid())).doesNotExist();
    assertThat(LabProcesses.open()).doesNotContain(process);
    process.close(); // idempotent
  }

  @Test
  void pauseStopsTheProcessAndResumeContinuesIt() throws Exception {
    try (LabProcess process = sleeper("sleeper-2")) {
      process.pause();
      assertThat(process.paused()).isTrue();
      assertThat(state(process.pid())).isEqualTo('T');
      process.resume();
      assertThat(process.paused()).isFalse();
      assertThat(state(process.pid())).isNotEqualTo('T');
    }
  }

  @Test
  void closeEndsAPausedProcess() throws Exception {
    LabProcess process = sleeper("sleeper-3");
    process.pause();
    process.close();
    assertThat(process.handle().onExit().get().isAlive()).isFalse();
    assertThat(process.exitCode()).contains(143);
  }

  @Test
  void killAnswersTheExitStatusOfSigkill() throws Exception {
    LabProcess process = sleeper("sleeper-4");
    assertThat(process.kill()).isEqualTo(137);
    assertThat(process.alive()).isFalse();
    assertThat(marker(process.pid())).doesNotExist();
    assertThatThrownBy(process::pause)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("exited");
  }

  @Test
  void aProcessStoppedWithSigintGetsItRatherThanSigterm() throws Exception {
    // exits 7 on SIGINT and ignores SIGTERM, as PostgreSQL's fast and smart shutdowns differ
    ProcessBuilder command =
        new ProcessBuilder(
            "sh",
            "-c",
            "trap 'exit 7' INT; trap '' TERM; echo ready; while :; do sleep 0.05; done");
    Path log = directory.resolve("int.log");
    LabProcess process = LabProcesses.start("interrupted", command, log, directory, StopSignal.INT);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!Files.readString(log).contains("ready") && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }

    long start = System.nanoTime();
    process.close();

    assertThat(process.exitCode()).contains(7);
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - start))
        .isLessThan(LabProcesses.STOP_GRACE);
  }

  @Test
  void outputIsAppendedToTheLog() throws Exception {
    Path log = directory.resolve("echo.log");
    Files.writeString(log, "before\n");
    LabProcess echo =
        LabProcesses.start(
            "echo", new ProcessBuilder("sh", "-c", "echo out; echo err >&2"), log, directory);
    echo.handle().onExit().get();
    assertThat(Files.readAllLines(log)).containsExactlyInAnyOrder("before", "out", "err");
    echo.close();
  }

  @Test
  void aRoleThatCannotNameAFileIsRefused() {
    assertThatThrownBy(() -> sleeper("../x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("role");
  }

  @Test
  void cleanUpStaleKillsAProcessWhoseOwnerIsGoneAndSparesOneWhoseOwnerLives() throws Exception {
    Process dead = new ProcessBuilder("true").start();
    long deadPid = dead.pid();
    dead.waitFor();
    Process orphan = new ProcessBuilder("sleep", "60").start();
    Process owned = new ProcessBuilder("sleep", "60").start();
    try {
      Path orphanPidFile = Files.writeString(directory.resolve("orphan.pid"), "" + orphan.pid());
      LabProcesses.writeMarker(
          new ProcessMarker(
              deadPid,
              null,
              orphan.pid(),
              LabProcesses.startOf(orphan.toHandle()),
              "orphan",
              orphanPidFile.toString()));
      ProcessHandle self = ProcessHandle.current();
      LabProcesses.writeMarker(
          new ProcessMarker(
              self.pid(),
              LabProcesses.startOf(self),
              owned.pid(),
              LabProcesses.startOf(owned.toHandle()),
              "owned",
              directory.resolve("owned.pid").toString()));

      assertThat(LabProcesses.cleanUpStale()).contains(orphan.pid()).doesNotContain(owned.pid());

      assertThat(orphan.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(orphan.exitValue()).isEqualTo(137);
      assertThat(marker(orphan.pid())).doesNotExist();
      assertThat(orphanPidFile).doesNotExist();
      assertThat(owned.isAlive()).isTrue();
      assertThat(marker(owned.pid())).exists();
    } finally {
      orphan.destroyForcibly();
      owned.destroyForcibly();
      Files.deleteIfExists(marker(owned.pid()));
    }
  }

  @Test
  void aReusedPidIsNotKilled() throws Exception {
    Process dead = new ProcessBuilder("true").start();
    long deadPid = dead.pid();
    dead.waitFor();
    Process stranger = new ProcessBuilder("sleep", "60").start();
    try {
      // the marker names the stranger's pid with another start instant: the pid was reused
      LabProcesses.writeMarker(
          new ProcessMarker(
              deadPid,
              null,
              stranger.pid(),
              "2001-01-01T00:00:00Z",
              "reused",
              directory.resolve("reused.pid").toString()));
      assertThat(LabProcesses.cleanUpStale()).doesNotContain(stranger.pid());
      assertThat(stranger.isAlive()).isTrue();
      assertThat(marker(stranger.pid())).doesNotExist();
    } finally {
      stranger.destroyForcibly();
      stranger.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
