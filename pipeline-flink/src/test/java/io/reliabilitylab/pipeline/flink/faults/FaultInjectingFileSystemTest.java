package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectingFileSystemTest {

  private static final String ID = "srl-fault-4-checkpoint-failure";

  @TempDir java.nio.file.Path temp;

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void flinkFindsTheSchemeOnTheClassPath() throws IOException {
    Path root = new Path(FaultInjectingFileSystem.uriOf(temp));

    assertThat(root.toUri().getScheme()).isEqualTo("srlfault");
    assertThat(root.getFileSystem()).isInstanceOf(FaultInjectingFileSystem.class);
  }

  @Test
  void anObjectStoreLocationGetsTheS3SchemeOfItsOwnAndOthersAreRefused() throws IOException {
    assertThat(FaultInjectingFileSystem.uriOf(java.net.URI.create("s3://lab-warehouse/cp/ns")))
        .hasToString("srlfault-s3://lab-warehouse/cp/ns");
    assertThat(FaultInjectingFileSystem.uriOf(temp.toUri()).getScheme()).isEqualTo("srlfault");
    assertThatThrownBy(
            () -> FaultInjectingFileSystem.uriOf(java.net.URI.create("gs://bucket/checkpoints")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("local and s3://");
    // the scheme is known; the bucket names the file system
    assertThat(new Path("srlfault-s3://lab-warehouse/cp").getFileSystem())
        .isInstanceOf(FaultInjectingFileSystem.class)
        .isSameAs(new Path("srlfault-s3://lab-warehouse/other").getFileSystem());
    assertThatThrownBy(
            () ->
                new FaultInjectingS3FileSystemFactory()
                    .create(java.net.URI.create("srlfault-s3:///cp")))
        .hasMessageContaining("names no bucket");
  }

  @Test
  void writesTheSameLocalFilesWhenNotArmed() throws IOException {
    Path file = checkpointFile(1, "_metadata");
    FileSystem fs = file.getFileSystem();

    write(fs, file, "state of checkpoint 1");

    java.nio.file.Path local = temp.resolve("job/chk-1/_metadata");
    assertThat(Files.readString(local)).isEqualTo("state of checkpoint 1");
    FileStatus[] listed = fs.listStatus(file.getParent());
    assertThat(listed).singleElement().satisfies(s -> assertThat(s.getPath()).isEqualTo(file));
    assertThat(fs.getFileStatus(file).getLen()).isEqualTo(Files.size(local));
    try (var in = fs.open(file)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("state of checkpoint 1");
    }
    assertThat(fs.rename(file, checkpointFile(1, "renamed"))).isTrue();
    assertThat(fs.exists(checkpointFile(1, "renamed"))).isTrue();
    assertThat(fs.delete(file.getParent(), true)).isTrue();
    assertThat(Files.exists(local.getParent())).isFalse();
  }

  @Test
  void failsTheFirstFileOfCheckpointNOnce() throws IOException {
    FaultSwitchboard.arm(
        FaultSwitchboard.CHECKPOINT_STORAGE,
        new FaultPosition.AtCheckpoint(2),
        FaultAction.THROW,
        ID);
    FileSystem fs = checkpointFile(1, "x").getFileSystem();

    write(fs, checkpointFile(1, "state"), "one");
    write(fs, temp("job/shared/a"), "not a checkpoint directory");
    assertThatThrownBy(() -> write(fs, checkpointFile(2, "state"), "two"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(ID)
        .hasMessageContaining("checkpoint 2");
    write(fs, checkpointFile(2, "_metadata"), "two");
    write(fs, checkpointFile(3, "state"), "three");

    assertThat(FaultSwitchboard.firing(ID))
        .hasValueSatisfying(firing -> assertThat(firing.checkpointId()).isEqualTo(2L));
    assertThat(Files.exists(temp.resolve("job/chk-2/state"))).isFalse();
    assertThat(Files.readString(temp.resolve("job/chk-2/_metadata"))).isEqualTo("two");
  }

  @Test
  void delaysTheFirstFileOfCheckpointNUntilDisarmed() throws Exception {
    FaultSwitchboard.arm(
        FaultSwitchboard.CHECKPOINT_STORAGE,
        new FaultPosition.AtCheckpoint(1),
        FaultAction.STALL,
        ID,
        Duration.ofMinutes(1));
    FileSystem fs = checkpointFile(1, "x").getFileSystem();

    CompletableFuture<Void> write =
        CompletableFuture.runAsync(
            () -> {
              try {
                write(fs, checkpointFile(1, "state"), "late");
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (FaultSwitchboard.firedAt(ID).isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(FaultSwitchboard.firedAt(ID)).isPresent();
    assertThat(write).isNotDone();

    FaultSwitchboard.disarm(ID);

    write.get(10, TimeUnit.SECONDS);
    assertThat(Files.readString(temp.resolve("job/chk-1/state"))).isEqualTo("late");
  }

  @Test
  void neverStallsTheJobManagersMetadataWrite() throws IOException {
    FaultSwitchboard.arm(
        FaultSwitchboard.CHECKPOINT_STORAGE, new FaultPosition.Now(), FaultAction.STALL, ID);
    FileSystem fs = checkpointFile(1, "x").getFileSystem();

    write(fs, checkpointFile(1, "_metadata"), "metadata");

    assertThat(FaultSwitchboard.firedAt(ID)).isEmpty();
  }

  @Test
  void findsTheCheckpointOfAPath() {
    assertThat(FaultInjectingFileSystem.checkpointOf(new Path("srlfault:///a/job/chk-12/x")))
        .hasValue(12);
    assertThat(FaultInjectingFileSystem.checkpointOf(new Path("srlfault:///a/job/chk-12")))
        .hasValue(12);
    assertThat(FaultInjectingFileSystem.checkpointOf(new Path("srlfault:///a/job/taskowned/x")))
        .isEmpty();
  }

  private Path checkpointFile(long checkpoint, String name) {
    return temp("job/chk-" + checkpoint + "/" + name);
  }

  private Path temp(String relative) {
    return new Path(FaultInjectingFileSystem.uriOf(temp.resolve(relative)));
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    try (OutputStream out = fs.create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
