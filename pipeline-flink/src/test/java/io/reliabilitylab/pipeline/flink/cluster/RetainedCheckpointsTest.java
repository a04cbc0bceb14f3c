package io.reliabilitylab.pipeline.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetainedCheckpointsTest {

  private static final String OLD_JOB = "0123456789abcdef0123456789abcdef";
  private static final String NEW_JOB = "fedcba9876543210fedcba9876543210";

  @TempDir Path checkpoints;

  @Test
  void theNewestCompleteCheckpointOfTheJobWinsOverUnfinishedAndOlderOnes() throws IOException {
    complete(OLD_JOB, 9, Instant.parse("2026-01-01T00:00:09Z"));
    complete(OLD_JOB, 12, Instant.parse("2026-01-01T00:00:12Z"));
    // an unfinished checkpoint: its directory exists, its _metadata does not
    Files.createDirectories(checkpoints.resolve(OLD_JOB).resolve("chk-13"));
    // an interrupted _metadata write
    Files.createDirectories(checkpoints.resolve(OLD_JOB).resolve("chk-14"));
    Files.createFile(checkpoints.resolve(OLD_JOB).resolve("chk-14").resolve("_metadata"));
    Files.createDirectories(checkpoints.resolve(OLD_JOB).resolve("shared"));
    Files.createDirectories(checkpoints.resolve("savepoints").resolve("savepoint-0123-abc"));

    assertThat(RetainedCheckpoints.latest(checkpoints, OLD_JOB))
        .hasValueSatisfying(
            found -> {
              assertThat(found.jobId()).isEqualTo(OLD_JOB);
              assertThat(found.checkpointId()).isEqualTo(12);
              assertThat(Path.of(found.directory()))
                  .isEqualTo(checkpoints.resolve(OLD_JOB).resolve("chk-12"));
            });
  }

  @Test
  void withoutCheckpointsOfItsOwnAJobGetsTheMostRecentlyCompletedOne() throws IOException {
    complete(OLD_JOB, 30, Instant.parse("2026-01-01T00:00:30Z"));
    // restored from an older savepoint: lower ids, but completed later
    complete(NEW_JOB, 8, Instant.parse("2026-01-01T00:01:00Z"));

    assertThat(RetainedCheckpoints.latest(checkpoints, "not-a-job-here"))
        .map(RetainedCheckpoints.Found::checkpointId)
        .hasValue(8L);
    assertThat(RetainedCheckpoints.latest(checkpoints, OLD_JOB))
        .map(RetainedCheckpoints.Found::checkpointId)
        .hasValue(30L);
    assertThat(RetainedCheckpoints.all(checkpoints)).hasSize(2);
  }

  @Test
  void aMissingDirectoryHoldsNoCheckpoint() {
    assertThat(RetainedCheckpoints.latest(checkpoints.resolve("absent"), OLD_JOB)).isEmpty();
  }

  private void complete(String job, long id, Instant at) throws IOException {
    Path directory = Files.createDirectories(checkpoints.resolve(job).resolve("chk-" + id));
    Path metadata = Files.write(directory.resolve("_metadata"), new byte[] {1, 2, 3});
    Files.setLastModifiedTime(metadata, FileTime.from(at));
  }
}
