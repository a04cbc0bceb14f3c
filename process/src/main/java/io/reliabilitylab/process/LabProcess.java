package io.reliabilitylab.process;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process the lab started through {@link LabProcesses}: killed, paused and resumed by signal,
 * stopped by {@link #close()}.
 */
@API(status = EXPERIMENTAL)
public final class LabProcess implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LabProcess.class);

  private final String role;
  private final Process process;
  private final Path log;
  private final Path pidFile;
  private final Path markerFile;
  private final StopSignal stopSignal;
  private volatile boolean paused;
  private volatile boolean closed;

  LabProcess(
      String role,
      Process process,
      Path log,
      Path pidFile,
      Path markerFile,
      StopSignal stopSignal) {
    this.role = role;
    this.process = process;
    this.log = log;
    this.pidFile = pidFile;
    this.markerFile = markerFile;
    this.stopSignal = stopSignal;
  }

  public String role() {
    return role;
  }

  public long pid() {
    return process.pid();
  }

  /** The file its stdout and stderr are appended to. */
  public Path log() {
    return log;
  }

  /** Its exit status once it has exited. */
  public Optional<Integer> exitCode() {
    return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** The operating system's process handle, e.g. to watch its exit. */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  /** SIGKILL; returns once the process exited, with its exit status (137). */
  public int kill() throws InterruptedException {
    process.destroyForcibly();
    int status = process.waitFor();
    paused = false;
    LOG.info("Killed {} (pid {}) with SIGKILL: exit status {}", role, pid(), status);
    release();
    return status;
  }

  /**
   * SIGSTOP: the process stops running until {@link #resume()}, as if hung. Returns once the system
   * reports it stopped (where {@code /proc} tells).
   */
  public void pause() throws IOException {
    signal("STOP");
    paused = true;
    awaitState(true);
    LOG.info("Paused {} (pid {}) with SIGSTOP", role, pid());
  }

  /** SIGCONT: a paused process runs on. */
  public void resume() throws IOException {
    signal("CONT");
    paused = false;
    awaitState(false);
    LOG.info("Resumed {} (pid {}) with SIGCONT", role, pid());
  }

  /** Whether it was paused by {@link #pause()} and not resumed since. */
  public boolean paused() {
    return paused && process.isAlive();
  }

  /** A signal is delivered asynchronously: waits up to 5 s for /proc to show the state. */
  private void awaitState(boolean stopped) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (process.isAlive()) {
      Optional<Boolean> now = stoppedBySignal(pid());
      if (now.isEmpty() || now.get() == stopped) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            role
                + " (pid "
                + pid()
                + ") is not "
                + (stopped ? "stopped" : "running")
                + " after 5 s");
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while waiting for " + role + " to change state", e);
      }
    }
  }

  /** Whether {@code /proc/<pid>/stat} shows the process stopped (state T); empty without /proc. */
  static Optional<Boolean> stoppedBySignal(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return Optional.of(stat.charAt(stat.lastIndexOf(')') + 2) == 'T');
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private void signal(String name) throws IOException {
    if (!process.isAlive()) {
      throw new IOException(
          "Cannot send SIG" + name + " to " + role + " (pid " + pid() + "): it has exited");
    }
    if (!LabProcesses.signal(pid(), name)) {
      throw new IOException("kill -" + name + " " + pid() + " failed for " + role);
    }
  }

  /** Sends its stop signal (after SIGCONT if paused) without waiting. */
  void terminate() {
    if (!process.isAlive()) {
      return;
    }
    if (paused) {
      LabProcesses.signal(pid(), "CONT");
      paused = false;
    }
    if (stopSignal == StopSignal.TERM || !LabProcesses.signal(pid(), stopSignal.name())) {
      process.destroy();
    }
  }

  /**
   * Stops it: SIGCONT if paused, its stop signal, SIGKILL after a grace period; removes its marker
   * and pid file. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    if (process.isAlive()) {
      terminate();
      if (!LabProcesses.awaitExit(process.toHandle(), LabProcesses.STOP_GRACE)) {
        LOG.warn(
            "{} (pid {}) ignored SIG{} for {}; killing it",
            role,
            pid(),
            stopSignal,
            LabProcesses.STOP_GRACE);
        process.destroyForcibly();
        LabProcesses.awaitExit(process.toHandle(), LabProcesses.STOP_GRACE);
      }
    }
    release();
  }

  private synchronized void release() {
    closed = true;
    LabProcesses.deleteQuietly(markerFile);
    LabProcesses.deleteQuietly(pidFile);
    LabProcesses.forget(this);
  }

  @Override
  public String toString() {
    return role + " (pid " + pid() + ")";
  }
}
