package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Finds retained checkpoints on a file-system checkpoint storage itself, without asking a cluster:
 * Flink writes each checkpoint of a job into {@code <checkpoint dir>/<job id>/chk-<n>/} and its
 * {@code _metadata} file last, when the checkpoint completes, so a {@code chk-<n>} directory with a
 * non-empty {@code _metadata} is a complete checkpoint, one without is an aborted or unfinished
 * one. This answers after the cluster that wrote the checkpoints is gone. The storage is a local
 * directory or any location Flink's file systems reach ({@code s3://bucket/prefix} with the S3
 * plugin loaded).
 *
 * <pre>{@code
 * Optional<RetainedCheckpoints.Found> latest =
 *     RetainedCheckpoints.latest(Path.of("/data/checkpoints"), jobId.toHexString());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class RetainedCheckpoints {

  private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");
  private static final String METADATA = "_metadata";

  private RetainedCheckpoints() {}

  /**
   * A complete checkpoint on the storage.
   *
   * @param jobId the job directory's name, the id of the job that took it
   * @param checkpointId its checkpoint id
   * @param directory its {@code chk-<n>} directory, the location to restore from
   * @param completedAt when its {@code _metadata} was written
   */
  public record Found(String jobId, long checkpointId, URI directory, Instant completedAt) {
    public Found {
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(completedAt, "completedAt");
    }
  }

  /** Every complete checkpoint under the local {@code checkpointDirectory}. */
  public static List<Found> all(Path checkpointDirectory) {
    return all(checkpointDirectory.toAbsolutePath().normalize().toUri());
  }

  /** Every complete checkpoint under {@code location}, in no particular order. */
  public static List<Found> all(URI location) {
    Objects.requireNonNull(location, "location");
    List<Found> found = new ArrayList<>();
    org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(location);
    try {
      FileSystem fileSystem = root.getFileSystem();
      for (FileStatus job : list(fileSystem, root)) {
        if (!job.isDir()) {
          continue;
        }
        // a subsumed checkpoint may be deleted while we look: what vanished is skipped
        for (FileStatus checkpoint : list(fileSystem, job.getPath())) {
          Matcher matcher = CHECKPOINT_DIRECTORY.matcher(checkpoint.getPath().getName());
          if (!matcher.matches()) {
            continue;
          }
          FileStatus metadata = status(fileSystem, checkpoint);
          if (metadata != null && metadata.getLen() > 0) {
            found.add(
                new Found(
                    job.getPath().getName(),
                    Long.parseLong(matcher.group(1)),
                    withoutTrailingSlash(checkpoint.getPath().toUri()),
                    Instant.ofEpochMilli(metadata.getModificationTime())));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Could not list the checkpoints under " + location + ": " + e.getMessage(), e);
    }
    return found;
  }

  private static List<FileStatus> list(FileSystem fileSystem, org.apache.flink.core.fs.Path path)
      throws IOException {
    try {
      FileStatus[] statuses = fileSystem.listStatus(path);
      return statuses == null ? List.of() : List.of(statuses);
    } catch (FileNotFoundException e) {
      return List.of();
    }
  }

  private static @Nullable FileStatus status(FileSystem fileSystem, FileStatus checkpoint)
      throws IOException {
    try {
      return fileSystem.getFileStatus(
          new org.apache.flink.core.fs.Path(checkpoint.getPath(), METADATA));
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  private static URI withoutTrailingSlash(URI uri) {
    String text = uri.toString();
    return text.endsWith("/") && text.length() > 1
        ? URI.create(text.substring(0, text.length() - 1))
        : uri;
  }

  /** The latest complete checkpoint under the local {@code checkpointDirectory}. */
  public static Optional<Found> latest(Path checkpointDirectory, @Nullable String preferredJobId) {
    return latest(checkpointDirectory.toAbsolutePath().normalize().toUri(), preferredJobId);
  }

  /**
   * The latest complete checkpoint: the newest (highest id) of {@code preferredJobId}'s own, else,
   * when that job has none, the most recently completed one of any job on the storage.
   */
  public static Optional<Found> latest(URI location, @Nullable String preferredJobId) {
    List<Found> all = all(location);
    Optional<Found> own =
        all.stream()
            .filter(f -> f.jobId().equals(preferredJobId))
            .max(Comparator.comparingLong(Found::checkpointId));
    if (own.isPresent()) {
      return own;
    }
    return all.stream()
        .max(Comparator.comparing(Found::completedAt).thenComparingLong(Found::checkpointId));
  }
}
