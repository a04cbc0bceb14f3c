package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault channel across real JVMs: child processes run an operator fault point on the channel,
 * the lab (this JVM) arms it through the directory only, and the arming fires in exactly one of
 * them, also after another JVM joins late as a restarted TaskManager would; a disarm ends a stall
 * in another process.
 */
class FaultChannelIT {

  private static final String THROW_ID = "srl-fault-1-task-exception";
  private static final String STALL_ID = "srl-fault-2-task-stall";

  @TempDir Path temp;

  @Test
  void anArmingFiresOnceAcrossJvmsAndADisarmEndsAStallInAnother() throws Exception {
    FaultChannel channel = FaultChannel.open(temp.resolve("fault-channel"));
    Path stop = temp.resolve("stop");
    List<Child> children = new ArrayList<>();
    try {
      children.add(Child.start(channel.directory(), stop));
      children.add(Child.start(channel.directory(), stop));
      for (Child child : children) {
        child.awaitReady();
      }
      assertThat(channel.roundTrip(Duration.ofSeconds(10), 2))
          .as("both children answer, with their pids")
          .hasSize(2)
          .anySatisfy(answer -> assertThat(answer).startsWith(children.get(0).pid() + "@"))
          .anySatisfy(answer -> assertThat(answer).startsWith(children.get(1).pid() + "@"));

      channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(20), "throw", THROW_ID);

      await(() -> channel.firing(THROW_ID).isPresent(), "the firing is written back");
      FaultFiring firing = channel.firing(THROW_ID).orElseThrow();
      long firedBy = Long.parseLong(firing.process().split("@", 2)[0]);
      assertThat(firedBy)
          .as("a child fired it, not the lab's JVM")
          .isIn(children.get(0).pid(), children.get(1).pid());
      assertThat(FaultSwitchboard.anyArmed())
          .as("the lab's own switchboard stays unarmed")
          .isFalse();

      // A JVM that joins later (a restarted TaskManager) learns the arming but must not fire it.
      Child late = Child.start(channel.directory(), stop);
      children.add(late);
      late.awaitReady();
      assertThat(channel.roundTrip(Duration.ofSeconds(10), 3)).hasSize(3);
      Thread.sleep(1_000); // the late child passes 20 elements many times over

      channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "stall", STALL_ID);
      await(() -> channel.firing(STALL_ID).isPresent(), "the stall began");
      long staller = Long.parseLong(channel.firing(STALL_ID).orElseThrow().process().split("@")[0]);
      Thread.sleep(500);
      channel.disarm(STALL_ID);
      Child stalled = children.stream().filter(c -> c.pid() == staller).findFirst().orElseThrow();
      await(() -> stalled.line(FaultChannelChild.HELD).isPresent(), "the stall ends in its JVM");
      long heldMillis =
          Long.parseLong(stalled.line(FaultChannelChild.HELD).orElseThrow().split(" ")[2]);
      assertThat(heldMillis).as("held until the disarm, not longer").isBetween(400L, 5_000L);

      Files.createFile(stop);
      int fired = 0;
      for (Child child : children) {
        assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String done = child.line(FaultChannelChild.DONE).orElseThrow();
        int count = Integer.parseInt(done.substring(FaultChannelChild.DONE.length()).strip());
        assertThat(count)
            .as("child %s fired %s", child.pid(), child.firedIds())
            .isEqualTo(child.pid() == firedBy ? 1 : 0);
        fired += count;
      }
      assertThat(fired).as("exactly once across all JVMs").isEqualTo(1);
    } finally {
      for (Child child : children) {
        child.process.destroyForcibly();
        child.process.waitFor(30, TimeUnit.SECONDS);
      }
    }
    assertThat(leftovers()).as("no child outlives the test").isEmpty();
  }

  @Test
  void aClusterProcessNamedTheChannelBySystemPropertyFailsTheCheckpointArmedThrough()
      throws Exception {
    FaultChannel channel = FaultChannel.open(temp.resolve("fault-channel"));
    Path stop = temp.resolve("stop");
    Child child =
        Child.start(
            channel.directory(),
            stop,
            List.of("-D" + FaultChannelWatcher.CHANNEL_PROPERTY + "=" + channel.directory()),
            List.of(temp.resolve("checkpoints").toString()));
    try {
      child.awaitReady();
      assertThat(channel.roundTrip(Duration.ofSeconds(10), 1))
          .singleElement()
          .asString()
          .startsWith(child.pid() + "@");

      channel.arm(
          FaultSwitchboard.CHECKPOINT_STORAGE,
          new FaultPosition.AtCheckpoint(5),
          "throw",
          THROW_ID);

      await(() -> channel.firing(THROW_ID).isPresent(), "the checkpoint write failed");
      FaultFiring firing = channel.firing(THROW_ID).orElseThrow();
      assertThat(firing.process()).startsWith(child.pid() + "@");
      assertThat(firing.checkpointId()).isGreaterThanOrEqualTo(5L);
      Files.createFile(stop);
      assertThat(child.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(child.line(FaultChannelChild.DONE)).contains(FaultChannelChild.DONE + 1);
      assertThat(child.firedIds()).contains(THROW_ID, "of checkpoint " + firing.checkpointId());
    } finally {
      child.process.destroyForcibly();
      child.process.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(leftovers()).as("no child outlives the test").isEmpty();
  }

  private String leftovers() throws IOException, InterruptedException {
    Process pgrep = new ProcessBuilder("pgrep", "-f", temp.resolve("stop").toString()).start();
    String found = new String(pgrep.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    pgrep.waitFor(10, TimeUnit.SECONDS);
    return found.strip();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("Not within 15 s: " + what);
      }
      Thread.sleep(20);
    }
  }

  /** A child JVM and the lines it printed. */
  private record Child(Process process, List<String> lines) {

    static Child start(Path channel, Path stop) throws IOException {
      return start(channel, stop, List.of(), List.of());
    }

    static Child start(Path channel, Path stop, List<String> jvmOptions, List<String> arguments)
        throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx128m");
      command.addAll(jvmOptions);
      command.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              FaultChannelChild.class.getName(),
              channel.toString(),
              stop.toString()));
      command.addAll(arguments);
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      Child child = new Child(process, new CopyOnWriteArrayList<>());
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader output =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = output.readLine(); line != null; line = output.readLine()) {
                    child.lines.add(line);
                  }
                } catch (IOException e) {
                  child.lines.add("read failed: " + e);
                }
              },
              "child-output " + process.pid());
      reader.setDaemon(true);
      reader.start();
      return child;
    }

    long pid() {
      return process.pid();
    }

    Optional<String> line(String prefix) {
      return lines.stream().filter(line -> line.startsWith(prefix)).findFirst();
    }

    String firedIds() {
      return lines.stream()
          .filter(line -> line.startsWith(FaultChannelChild.FIRED))
          .collect(Collectors.joining("; "));
    }

    void awaitReady() throws InterruptedException {
      await(
          () -> line(FaultChannelChild.READY).isPresent() || !process.isAlive(),
          "child " + pid() + " ready");
      assertThat(line(FaultChannelChild.READY))
          .as("child %s started: %s", pid(), lines)
          .isPresent();
    }
  }
}
