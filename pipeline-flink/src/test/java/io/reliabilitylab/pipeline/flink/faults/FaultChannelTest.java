package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultChannelTest {

  private static final String ID = "srl-fault-7-task-exception";

  @TempDir Path temp;
  private Path directory;
  private FaultChannel channel;

  @BeforeEach
  void openChannel() {
    directory = temp.resolve("fault-channel");
    channel = FaultChannel.open(directory);
  }

  @AfterEach
  void stopWatchers() throws InterruptedException {
    FaultChannelWatcher.stopAll();
    FaultSwitchboard.reset();
  }

  @Test
  void anArmingWrittenBeforeTheWatcherStartsFiresAndTheLabReadsTheFiring() throws Exception {
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.AfterEvent(2), "throw", ID);
    assertThat(FaultSwitchboard.anyArmed()).as("the lab's call arms no switchboard").isFalse();
    assertThat(channel.firing(ID)).isEmpty();

    FaultChannelWatcher.watch(directory);

    assertThat(FaultSwitchboard.anyArmed()).as("armed by the watcher's first scan").isTrue();
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, directory);
    point.map("1");
    point.map("2");
    assertThatThrownBy(() -> point.map("3"))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageStartingWith(ID);
    FaultFiring firing = channel.firing(ID).orElseThrow();
    assertThat(firing.point()).isEqualTo(FaultSwitchboard.OPERATOR);
    assertThat(firing.position()).isEqualTo(new FaultPosition.AfterEvent(2));
    assertThat(firing.action()).isEqualTo(FaultAction.THROW);
    assertThat(firing.process())
        .isEqualTo(ProcessHandle.current().pid() + "@" + firing.process().split("@", 2)[1]);
    assertThat(channel.firedAt(ID)).contains(firing.at());
    assertThat(FaultSwitchboard.firedAt(ID)).as("the local switchboard knows it too").isPresent();
  }

  @Test
  void aJobHeldAtItsStartGateCountsItsFirstSnapshotRowsOnceTheLabArmedAndOpenedIt()
      throws Exception {
    String gate = StartGates.newGate();
    OperatorFaultPoint<String> point =
        new OperatorFaultPoint<>(element -> element.startsWith("r"), directory, gate);
    FaultChannelWatcher.watch(directory); // as the point does when it opens
    CompletableFuture<List<String>> job =
        CompletableFuture.supplyAsync(
            () -> {
              List<String> passed = new ArrayList<>();
              try {
                for (int i = 1; i <= 5; i++) {
                  passed.add(point.map("r" + i));
                }
              } catch (Exception e) {
                passed.add(e.getMessage());
              }
              return passed;
            });
    Thread.sleep(200);
    assertThat(job).as("held at the gate").isNotDone();

    // as the lab does: the arming first, then the gate
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.SnapshotPhase(1), "throw", ID);
    channel.openStartGate(gate);

    assertThat(job.get(5, TimeUnit.SECONDS))
        .as("the fault counted from the first row: fired at the second")
        .hasSize(2)
        .first()
        .isEqualTo("r1");
    assertThat(channel.firing(ID)).isPresent();
  }

  @Test
  void anArmingWrittenWhileTheWatcherRunsIsLearntWithinAPoll() throws Exception {
    FaultChannelWatcher.watch(directory);
    assertThat(FaultSwitchboard.anyArmed()).isFalse();

    channel.arm(FaultSwitchboard.SOURCE_ENUMERATOR, new FaultPosition.AtCheckpoint(3), "throw", ID);

    await(FaultSwitchboard::anyArmed);
    Arming arming = FaultSwitchboard.armed(FaultSwitchboard.SOURCE_ENUMERATOR).get(0);
    assertThat(arming.tryFire(4L)).isTrue();
    assertThat(channel.firing(ID).orElseThrow().checkpointId()).isEqualTo(4L);
  }

  @Test
  void disarmingThroughTheChannelEndsAStallInTheJob() throws Exception {
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "stall", ID);
    FaultChannelWatcher.watch(directory);
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, directory);

    CompletableFuture<String> stalled =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return point.map("x");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    await(() -> channel.firing(ID).isPresent());
    Thread.sleep(100);
    assertThat(stalled).as("stalls until disarmed").isNotDone();

    channel.disarm(ID);

    assertThat(stalled.get(5, TimeUnit.SECONDS)).isEqualTo("x");
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
    assertThat(channel.firing(ID)).as("still readable after disarming").isPresent();
  }

  @Test
  void onlyTheFirstClaimOfAnArmingFiresAndALaterArmingClaimsAfresh() {
    ChannelLayout layout = new ChannelLayout(directory);
    FaultFiring firing =
        new FaultFiring(
            ID,
            FaultSwitchboard.OPERATOR,
            new FaultPosition.Now(),
            FaultAction.THROW,
            Instant.now(),
            null,
            "1@elsewhere");

    assertThat(new ChannelClaim(layout, ID, "aaaa").claim(firing)).isTrue();
    assertThat(new ChannelClaim(layout, ID, "aaaa").claim(firing))
        .as("a second JVM, or the first after a restart")
        .isFalse();
    assertThat(new ChannelClaim(layout, ID, "bbbb").claim(firing))
        .as("another arming of the same id")
        .isTrue();
    assertThat(channel.firing(ID).orElseThrow().process()).isEqualTo("1@elsewhere");
  }

  @Test
  void anArmingFiredByAnEarlierIncarnationDoesNotFireAgain() throws Exception {
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    FaultChannelWatcher.watch(directory);
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, directory);
    assertThatThrownBy(() -> point.map("x")).isInstanceOf(InjectedFaultException.class);
    Instant firstFiring = channel.firedAt(ID).orElseThrow();

    // A new JVM (a restarted TaskManager): an empty switchboard and a new watcher.
    FaultChannelWatcher.stopAll();
    FaultSwitchboard.reset();
    FaultChannelWatcher.watch(directory);
    assertThat(FaultSwitchboard.anyArmed()).as("the arming is learnt again").isTrue();

    assertThat(point.map("y")).isEqualTo("y");
    assertThat(FaultSwitchboard.anyArmed()).as("claimed elsewhere: it leaves").isFalse();
    assertThat(FaultSwitchboard.firedAt(ID)).isEmpty();
    assertThat(channel.firedAt(ID)).contains(firstFiring);
  }

  @Test
  void aReArmingAfterADisarmFiresAgain() throws Exception {
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    FaultChannelWatcher.watch(directory);
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, directory);
    assertThatThrownBy(() -> point.map("x")).isInstanceOf(InjectedFaultException.class);
    channel.disarm(ID);
    await(() -> !FaultSwitchboard.isArmed(ID));

    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    assertThat(channel.firing(ID)).as("the earlier firing is forgotten").isEmpty();
    await(FaultSwitchboard::anyArmed);

    assertThatThrownBy(() -> point.map("y")).isInstanceOf(InjectedFaultException.class);
    assertThat(channel.firing(ID)).isPresent();
  }

  @Test
  void aThrottleReportsWhenItBegan() throws Exception {
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throttle-1ms", ID);
    FaultChannelWatcher.watch(directory);
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, directory);

    point.map("x");

    FaultFiring started = channel.firing(ID).orElseThrow();
    assertThat(started.action()).isEqualTo(FaultAction.THROTTLE);
    assertThat(FaultSwitchboard.anyArmed()).as("a throttle stays until disarmed").isTrue();
    channel.disarm(ID);
    await(() -> !FaultSwitchboard.anyArmed());
  }

  @Test
  void aRoundTripReturnsTheWatchingProcesses() throws Exception {
    assertThat(channel.roundTrip(Duration.ofMillis(150), 1)).as("nobody watches yet").isEmpty();

    FaultChannelWatcher.watch(directory);

    assertThat(channel.roundTrip(Duration.ofSeconds(5), 1))
        .singleElement()
        .asString()
        .startsWith(ProcessHandle.current().pid() + "@")
        .endsWith(" jvm");
    assertThat(ChannelLayout.list(directory.resolve("pongs"))).as("cleaned up").isEmpty();
  }

  @Test
  void validatesAsTheSwitchboardDoes() {
    assertThatThrownBy(() -> channel.arm("network", new FaultPosition.Now(), "throw", ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown fault point 'network'");
    assertThatThrownBy(
            () ->
                channel.arm(
                    FaultSwitchboard.CHECKPOINT_STORAGE,
                    new FaultPosition.AfterEvent(3),
                    "throw",
                    ID))
        .hasMessageContaining("cannot fire at after-event:3");
    assertThatThrownBy(
            () -> channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "explode", ID))
        .hasMessageContaining("Unknown fault action 'explode'");
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    assertThatThrownBy(
            () -> channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "stall", ID))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Fault " + ID + " is armed already; disarm it before arming it again");
  }

  @Test
  void aMalformedArmFileIsReportedAndTheWatcherGoesOn() throws Exception {
    Files.writeString(
        directory.resolve("arm").resolve("broken.0123.arm"), "fault-id=broken\nposition=now\n");
    Files.writeString(
        directory.resolve("arm").resolve("nonsense.4567.arm"),
        "fault-id=nonsense\npoint=operator\nposition=sometime\naction=throw\n");

    FaultChannelWatcher.watch(directory);

    assertThat(channel.rejections())
        .satisfiesExactly(
            line -> assertThat(line).startsWith("broken, ").contains("has no 'point'"),
            line -> assertThat(line).startsWith("nonsense, ").contains("sometime"));
    assertThat(FaultSwitchboard.anyArmed()).isFalse();
    channel.arm(FaultSwitchboard.OPERATOR, new FaultPosition.Now(), "throw", ID);
    await(FaultSwitchboard::anyArmed);
  }

  @Test
  void theCheckpointStorageFollowsTheLinkInItsCheckpointDirectory() throws Exception {
    Path checkpoints = temp.resolve("checkpoints");
    FaultChannelWatcher.linkCheckpointDirectory(checkpoints, directory);
    channel.arm(
        FaultSwitchboard.CHECKPOINT_STORAGE, new FaultPosition.AtCheckpoint(2), "throw", ID);
    FaultInjectingFileSystem fileSystem = new FaultInjectingFileSystem();
    Path chk1 = Files.createDirectories(checkpoints.resolve("job-1").resolve("chk-1"));
    Path chk2 = Files.createDirectories(checkpoints.resolve("job-1").resolve("chk-2"));

    try (OutputStream out =
        fileSystem.create(fsPath(chk1.resolve("state")), WriteMode.NO_OVERWRITE)) {
      out.write("s".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(FaultChannelWatcher.watching(directory)).isTrue();
    assertThatThrownBy(
            () -> fileSystem.create(fsPath(chk2.resolve("state")), WriteMode.NO_OVERWRITE))
        .hasMessageStartingWith(ID);
    assertThat(channel.firing(ID).orElseThrow().checkpointId()).isEqualTo(2L);
  }

  @Test
  void aClusterProcessWatchesTheChannelItsConfigurationNamesFromItsStart() {
    Configuration configuration = new Configuration();
    configuration.setString(FaultChannelWatcher.CHANNEL_PROPERTY, directory.toString());
    FaultInjectingFileSystemFactory factory = new FaultInjectingFileSystemFactory();

    factory.configure(new Configuration());
    assertThat(FaultChannelWatcher.watching(directory)).isFalse();
    factory.configure(configuration);

    assertThat(FaultChannelWatcher.watching(directory)).isTrue();
  }

  private static org.apache.flink.core.fs.Path fsPath(Path local) {
    return new org.apache.flink.core.fs.Path(FaultInjectingFileSystem.uriOf(local));
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within 5 s");
      }
      Thread.sleep(10);
    }
  }
}
