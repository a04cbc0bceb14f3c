package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Finds retained checkpoints on a file-system checkpoint storage itself, without asking a cluster:
 * Flink writes each checkpoint of a job into {@code <checkpoint dir>/<job id>/chk-<n>/} and its
 * {@code _metadata} file last, when the checkpoint completes, so a {@code chk-<n>} directory with a
 * non-empty {@code _metadata} is a complete checkpoint, one without is an aborted or unfinished
 * one. This answers after the cluster that wrote the checkpoints is gone.
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
   * @param directory its {@code chk-<n>} directory, the path to restore from
   * @param completedAt when its {@code _metadata} was written
   */
  public record Found(String jobId, long checkpointId, Path directory, FileTime completedAt) {
    public Found {
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(completedAt, "completedAt");
    }
  }

  /** Every complete checkpoint under {@code checkpointDirectory}, in no particular order. */
  public static List<Found> all(Path checkpointDirectory) {
    Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
    List<Found> found = new ArrayList<>();
    if (!Files.isDirectory(checkpointDirectory)) {
      return found;
    }
    try (Stream<Path> jobs = Files.list(checkpointDirectory)) {
      for (Path job : jobs.filter(Files::isDirectory).toList()) {
        try (Stream<Path> checkpoints = Files.list(job)) {
          for (Path checkpoint : checkpoints.toList()) {
            Matcher matcher = CHECKPOINT_DIRECTORY.matcher(checkpoint.getFileName().toString());
            Path metadata = checkpoint.resolve(METADATA);
            if (matcher.matches() && Files.isRegularFile(metadata) && Files.size(metadata) > 0) {
              found.add(
                  new Found(
                      job.getFileName().toString(),
                      Long.parseLong(matcher.group(1)),
                      checkpoint,
                      Files.getLastModifiedTime(metadata)));
            }
          }
        } catch (IOException e) {
          // a subsumed checkpoint may be deleted while we look: skip what vanished
          if (Files.exists(job)) {
            throw e;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Could not list the checkpoints under " + checkpointDirectory + ": " + e.getMessage(), e);
    }
    return found;
  }

  /**
   * The latest complete checkpoint: the newest (highest id) of {@code preferredJobId}'s own, else,
   * when that job has none, the most recently completed one of any job on the storage.
   */
  public static Optional<Found> latest(Path checkpointDirectory, @Nullable String preferredJobId) {
    List<Found> all = all(checkpointDirectory);
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
