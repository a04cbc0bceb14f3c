package io.reliabilitylab.pipeline.broker.source;

import io.reliabilitylab.spi.data.SourcePosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copies of Debezium's offset file that a rewind goes back to: numbered files under the work
 * directory's {@code offset-snapshots}, and putting one back in the offset file's place. Not thread
 * safe: the publisher's synchronized methods call it.
 */
final class OffsetSnapshots {

  /** Logged under the publisher's name, where its other messages are. */
  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisher.class);

  private final Path workDirectory;
  private final @Nullable String flushIntervalMs;
  private int taken;

  OffsetSnapshots(Path workDirectory, @Nullable String flushIntervalMs) {
    this.workDirectory = workDirectory;
    this.flushIntervalMs = flushIntervalMs;
  }

  /**
   * Copies the offset file as it is now, with how far {@code accounting} says publishing had got.
   *
   * @throws IllegalStateException if no offsets were flushed yet
   */
  OffsetSnapshot take(PublishAccounting accounting) {
    Path offsets = offsetFile();
    if (!Files.isRegularFile(offsets)) {
      throw new IllegalStateException(
          "No offsets were flushed to "
              + offsets
              + " yet: start the publisher and let it publish (offsets flush every "
              + flushIntervalMs
              + " ms)");
    }
    long publishedNow = accounting.published();
    SourcePosition positionNow = accounting.lastPosition();
    Instant takenAt = Instant.now();
    try {
      Path directory =
          Files.createDirectories(workDirectory.resolve(DebeziumPublisher.SNAPSHOT_DIRECTORY));
      Path copy = directory.resolve(String.format("offsets-%03d.dat", ++taken));
      Map<String, String> content = OffsetFiles.copy(offsets, copy);
      LOG.info("Offsets copied to {}: {}", copy, content.values());
      return new OffsetSnapshot(copy, takenAt, content, publishedNow, positionNow);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy the offset file " + offsets, e);
    }
  }

  /** Replaces the offset file with the snapshot's copy: copied beside it, then moved atomically. */
  void restore(OffsetSnapshot snapshot) {
    try {
      Path partial = offsetFile().resolveSibling(DebeziumPublisher.OFFSET_FILE + ".rewind");
      Files.copy(snapshot.copy(), partial, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          partial,
          offsetFile(),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot replace the offset file " + offsetFile() + " with " + snapshot.copy(), e);
    }
  }

  /** Debezium's offset file ({@code FileOffsetBackingStore}). */
  Path offsetFile() {
    return workDirectory.resolve(DebeziumPublisher.OFFSET_FILE);
  }
}
