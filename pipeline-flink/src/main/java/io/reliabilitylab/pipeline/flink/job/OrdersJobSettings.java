package io.reliabilitylab.pipeline.flink.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.flink.faults.FaultChannel;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingFileSystem;
import io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard;
import io.reliabilitylab.pipeline.flink.faults.StartGates;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a reference job shares whatever its source: the sink's catalog, checkpointing, the restart
 * strategy, parallelism, the sinks' uids, its fault points and variant.
 *
 * <pre>{@code
 * OrdersJobSettings settings = OrdersJobSettings.builder()
 *     .warehouse(tempDir.resolve("warehouse"))
 *     .checkpointDirectory(tempDir.resolve("checkpoints"))
 *     .checkpointInterval(Duration.ofSeconds(1))
 *     .build();
 * }</pre>
 *
 * @param catalog the Iceberg catalog of both sink tables: a Hadoop warehouse directory or a REST
 *     catalog
 * @param namespace the Iceberg namespace of both tables
 * @param checkpointDirectory where checkpoints are written and retained
 * @param checkpointInterval how often a checkpoint (and thus an Iceberg commit) is taken
 * @param checkpointTimeout how long a checkpoint may take before it fails
 * @param tolerableCheckpointFailures how many failed checkpoints in a row the job survives
 * @param restartAttempts the fixed-delay restart strategy's attempts
 * @param restartDelay the fixed delay between restarts; it does not grow
 * @param parallelism the job's parallelism (source, mappers, writers)
 * @param currentUidPrefix the stable uid prefix of the current table's sink
 * @param changelogUidPrefix the stable uid prefix of the changelog table's sink
 * @param jobName the Flink job name
 * @param faultPoints whether the job has its fault points (no-ops until armed) and keeps its
 *     checkpoints on the fault-injecting {@code srlfault://} file system
 * @param taskStateInFiles whether tasks write even small checkpoint state into files of their own
 *     ({@code state.storage.fs.memory-threshold} 0), so that a checkpoint-storage fault hits the
 *     checkpoint's asynchronous part rather than the JobManager's {@code _metadata}
 * @param maxContinuousEmptyCommits Iceberg's {@code flink.max-continuous-empty-commits} on both
 *     tables: the sink commits a checkpoint without new files only every this many checkpoints
 * @param variant the faithful job, or a deliberately broken one for negative controls
 * @param alignTransactions whether the job holds each source transaction's changes until the change
 *     log shows it complete, so that no commit holds part of one (a job whose source names its
 *     transactions and writes fences: the direct pipeline on MySQL/MariaDB)
 * @param faultChannel the control directory of a {@link FaultChannel} that arms the fault points in
 *     every JVM the job runs in (a cluster of several processes); null: they are armed through the
 *     lab's JVM's {@link FaultSwitchboard} only (a MiniCluster)
 * @param checkpointLocation where checkpoints are written and retained on another file system in
 *     place of {@code checkpointDirectory} (an {@code s3://} location on the object store, through
 *     Flink's S3 file system plugin); null: the checkpoint directory
 * @param startGate the {@link StartGates start gate} the operator fault point holds the job's first
 *     element at until the lab opens it, once it armed the faults placed at the job's start; null:
 *     no gate (nobody would open it)
 */
@API(status = EXPERIMENTAL)
public record OrdersJobSettings(
    SinkCatalog catalog,
    String namespace,
    Path checkpointDirectory,
    Duration checkpointInterval,
    Duration checkpointTimeout,
    int tolerableCheckpointFailures,
    int restartAttempts,
    Duration restartDelay,
    int parallelism,
    String currentUidPrefix,
    String changelogUidPrefix,
    String jobName,
    boolean faultPoints,
    boolean taskStateInFiles,
    int maxContinuousEmptyCommits,
    JobVariant variant,
    boolean alignTransactions,
    @Nullable Path faultChannel,
    @Nullable URI checkpointLocation,
    @Nullable String startGate) {

  /**
   * The Iceberg table property the sink's committer reads for {@link #maxContinuousEmptyCommits}.
   */
  public static final String MAX_CONTINUOUS_EMPTY_COMMITS = "flink.max-continuous-empty-commits";

  /**
   * The tables' commit retries behind a catalog service (REST): 20 tries, waiting 50 ms to 1 s
   * between them (Iceberg's defaults: 4 tries, 100 ms to 60 s).
   */
  public static final Map<String, String> SERVICE_COMMIT_RETRIES =
      Map.of(
          "commit.retry.num-retries", "20",
          "commit.retry.min-wait-ms", "50",
          "commit.retry.max-wait-ms", "1000");

  /** The pipeline option that turns on {@link #alignTransactions()}: {@code aligned}. */
  public static final String TRANSACTIONS_OPTION = "job.transactions";

  public OrdersJobSettings {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(checkpointTimeout, "checkpointTimeout");
    Objects.requireNonNull(restartDelay, "restartDelay");
    Objects.requireNonNull(currentUidPrefix, "currentUidPrefix");
    Objects.requireNonNull(changelogUidPrefix, "changelogUidPrefix");
    Objects.requireNonNull(jobName, "jobName");
    Objects.requireNonNull(variant, "variant");
    if (checkpointInterval.toMillis() < 10) {
      throw new IllegalArgumentException(
          "checkpointInterval must be at least 10 ms, got " + checkpointInterval);
    }
    if (checkpointTimeout.toMillis() < 10) {
      throw new IllegalArgumentException(
          "checkpointTimeout must be at least 10 ms, got " + checkpointTimeout);
    }
    if (tolerableCheckpointFailures < 0) {
      throw new IllegalArgumentException(
          "tolerableCheckpointFailures must be >= 0, got " + tolerableCheckpointFailures);
    }
    if (restartAttempts < 0) {
      throw new IllegalArgumentException("restartAttempts must be >= 0, got " + restartAttempts);
    }
    if (restartDelay.isNegative()) {
      throw new IllegalArgumentException("restartDelay cannot be negative: " + restartDelay);
    }
    if (maxContinuousEmptyCommits < 1) {
      throw new IllegalArgumentException(
          "maxContinuousEmptyCommits must be at least 1, got " + maxContinuousEmptyCommits);
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
    }
    if (currentUidPrefix.equals(changelogUidPrefix)) {
      throw new IllegalArgumentException(
          "The two sinks need different uid prefixes, both are '" + currentUidPrefix + "'");
    }
  }

  /** A builder with the test-friendly defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings, to change one. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The settings that decide a verdict, for the run record: checkpointing, restart strategy,
   * parallelism, sinks and fault points. No secrets.
   */
  public Map<String, String> effectiveConfiguration() {
    return EffectiveJobConfiguration.of(this);
  }

  /**
   * Where the job writes its checkpoints: the checkpoint directory as a {@code file:} URI, or, with
   * fault points, as an {@code srlfault:} URI (the same files, through the fault-injecting file
   * system).
   */
  public URI checkpointStorageUri() {
    return checkpointLocation != null
        ? storageUriOf(checkpointLocation)
        : storageUriOf(checkpointDirectory);
  }

  /**
   * A location on the checkpoint storage's file system (a retained checkpoint, say) as the job's
   * checkpoint storage names it: through the fault-injecting file system with fault points.
   */
  public URI storageUriOf(URI location) {
    return faultPoints ? FaultInjectingFileSystem.uriOf(location) : location;
  }

  /**
   * A path under the checkpoint directory (a retained checkpoint, say) as the job's checkpoint
   * storage names it: {@code srlfault:} with fault points, {@code file:} without.
   */
  public URI storageUriOf(Path local) {
    return faultPoints
        ? FaultInjectingFileSystem.uriOf(local)
        : local.toAbsolutePath().normalize().toUri();
  }

  /** The names of the job's fault points; empty when they are off. */
  public Set<String> faultPointNames() {
    return faultPoints ? FaultSwitchboard.points() : Set.of();
  }

  /** Builds {@link OrdersJobSettings}; the two directories have no useful default. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private SinkCatalog catalog = SinkCatalog.hadoop(Path.of("warehouse"));
    private String namespace = OrdersTables.NAMESPACE;
    private Path checkpointDirectory = Path.of("checkpoints");
    private Duration checkpointInterval = Duration.ofSeconds(1);
    private Duration checkpointTimeout = Duration.ofSeconds(10);
    // A few failed checkpoints are tolerated, as in production, so that a failure in the
    // asynchronous part or an expiry does not restart the job (the tolerated checkpoint fault).
    private int tolerableCheckpointFailures = 3;
    private int restartAttempts = 1_000;
    private Duration restartDelay = Duration.ofMillis(200);
    private int parallelism = 2;
    private String currentUidPrefix = "iceberg-orders-current";
    private String changelogUidPrefix = "iceberg-orders-changelog";
    private String jobName = "reliability-lab pipeline";
    private boolean faultPoints = true;
    private boolean taskStateInFiles = false;
    // Every checkpoint commits, also without new files: the first commit after a fault then shows
    // that the sink is back at the first checkpoint after the restart, whether or not data
    // arrived; with Iceberg's default of 10 an idle sink commits only every 10th checkpoint, which
    // made "fault to first commit" measure the idle time (10 s at 1 s checkpoints).
    private int maxContinuousEmptyCommits = 1;
    private JobVariant variant = JobVariant.FAITHFUL;
    private boolean alignTransactions;
    private @Nullable Path faultChannel;
    private @Nullable URI checkpointLocation;
    private @Nullable String startGate;

    private Builder() {}

    private Builder(OrdersJobSettings settings) {
      catalog = settings.catalog;
      namespace = settings.namespace;
      checkpointDirectory = settings.checkpointDirectory;
      checkpointInterval = settings.checkpointInterval;
      checkpointTimeout = settings.checkpointTimeout;
      tolerableCheckpointFailures = settings.tolerableCheckpointFailures;
      restartAttempts = settings.restartAttempts;
      restartDelay = settings.restartDelay;
      parallelism = settings.parallelism;
      currentUidPrefix = settings.currentUidPrefix;
      changelogUidPrefix = settings.changelogUidPrefix;
      jobName = settings.jobName;
      faultPoints = settings.faultPoints;
      taskStateInFiles = settings.taskStateInFiles;
      maxContinuousEmptyCommits = settings.maxContinuousEmptyCommits;
      variant = settings.variant;
      alignTransactions = settings.alignTransactions;
      faultChannel = settings.faultChannel;
      checkpointLocation = settings.checkpointLocation;
      startGate = settings.startGate;
    }

    /** A Hadoop catalog on the Iceberg warehouse directory {@code warehouse}. */
    public Builder warehouse(Path warehouse) {
      return catalog(SinkCatalog.hadoop(warehouse));
    }

    /** The catalog of both tables; default a Hadoop catalog on {@code warehouse}. */
    public Builder catalog(SinkCatalog catalog) {
      this.catalog = catalog;
      return this;
    }

    /** The Iceberg namespace; default {@code lab}. */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    /** Where checkpoints are kept. */
    public Builder checkpointDirectory(Path checkpointDirectory) {
      this.checkpointDirectory = checkpointDirectory;
      return this;
    }

    /** Default 1 s. */
    public Builder checkpointInterval(Duration checkpointInterval) {
      this.checkpointInterval = checkpointInterval;
      return this;
    }

    /** Default 10 s: low, so that a stuck checkpoint fails within a test. */
    public Builder checkpointTimeout(Duration checkpointTimeout) {
      this.checkpointTimeout = checkpointTimeout;
      return this;
    }

    /** Default 3: a failed checkpoint is tolerated; the fourth in a row fails the job. */
    public Builder tolerableCheckpointFailures(int tolerableCheckpointFailures) {
      this.tolerableCheckpointFailures = tolerableCheckpointFailures;
      return this;
    }

    /** Default 1,000 attempts. */
    public Builder restartAttempts(int restartAttempts) {
      this.restartAttempts = restartAttempts;
      return this;
    }

    /** Default 200 ms, fixed. */
    public Builder restartDelay(Duration restartDelay) {
      this.restartDelay = restartDelay;
      return this;
    }

    /**
     * Default 2: it uses both cores of a small machine and puts a real keyed shuffle (by {@code
     * order_id}) in front of the current table's writers, where an ordering bug would show.
     */
    public Builder parallelism(int parallelism) {
      this.parallelism = parallelism;
      return this;
    }

    /** Default {@code iceberg-orders-current}. */
    public Builder currentUidPrefix(String currentUidPrefix) {
      this.currentUidPrefix = currentUidPrefix;
      return this;
    }

    /** Default {@code iceberg-orders-changelog}. */
    public Builder changelogUidPrefix(String changelogUidPrefix) {
      this.changelogUidPrefix = changelogUidPrefix;
      return this;
    }

    public Builder jobName(String jobName) {
      this.jobName = jobName;
      return this;
    }

    /**
     * Default on: the job has its fault points, transparent until armed through {@link
     * FaultSwitchboard}, and writes checkpoints through the {@code srlfault://} file system. Off
     * builds the bare job.
     */
    public Builder faultPoints(boolean faultPoints) {
      this.faultPoints = faultPoints;
      return this;
    }

    /**
     * Default off. On, every task writes its checkpoint state into files of its own ({@code
     * state.storage.fs.memory-threshold} 0) instead of inlining small state into the JobManager's
     * {@code _metadata}: then the {@code checkpoint-storage} point fails or delays a task's file,
     * in the asynchronous part of the checkpoint (a counted failure, or an expiry).
     */
    public Builder taskStateInFiles(boolean taskStateInFiles) {
      this.taskStateInFiles = taskStateInFiles;
      return this;
    }

    /**
     * Default 1: both sinks commit at every checkpoint, also one that brought no new files, so that
     * each checkpoint leaves a snapshot carrying its {@code flink.max-committed-checkpoint-id} and
     * recovery shows at the first checkpoint after a restart. Iceberg's own default is 10.
     */
    public Builder maxContinuousEmptyCommits(int maxContinuousEmptyCommits) {
      this.maxContinuousEmptyCommits = maxContinuousEmptyCommits;
      return this;
    }

    /** The faithful job (default), or a deliberately broken one for negative controls. */
    public Builder variant(JobVariant variant) {
      this.variant = variant;
      return this;
    }

    /**
     * Default off: the sinks get the changes as the source reads them, and a commit may end inside
     * a source transaction. On: each transaction's changes are held until it is complete.
     */
    public Builder alignTransactions(boolean alignTransactions) {
      this.alignTransactions = alignTransactions;
      return this;
    }

    /**
     * Default none: the fault points are armed through the lab's JVM only (a MiniCluster). A
     * directory: they also watch this {@link FaultChannel}, which reaches every JVM of a cluster
     * that shares the directory; the job links its checkpoint directory to it.
     */
    public Builder faultChannel(@Nullable Path faultChannel) {
      this.faultChannel = faultChannel;
      return this;
    }

    /**
     * Default none: checkpoints go to the checkpoint directory. A location on another file system
     * ({@code s3://bucket/prefix}) takes them instead; the process needs that file system.
     */
    public Builder checkpointLocation(@Nullable URI checkpointLocation) {
      this.checkpointLocation = checkpointLocation;
      return this;
    }

    /**
     * Default none. A gate's name ({@link StartGates#newGate}): the job's first element waits until
     * whoever starts the job opens it (at most {@link StartGates#LONGEST_WAIT}).
     */
    public Builder startGate(@Nullable String startGate) {
      this.startGate = startGate;
      return this;
    }

    public OrdersJobSettings build() {
      return new OrdersJobSettings(
          catalog,
          namespace,
          checkpointDirectory,
          checkpointInterval,
          checkpointTimeout,
          tolerableCheckpointFailures,
          restartAttempts,
          restartDelay,
          parallelism,
          currentUidPrefix,
          changelogUidPrefix,
          jobName,
          faultPoints,
          taskStateInFiles,
          maxContinuousEmptyCommits,
          variant,
          alignTransactions,
          faultChannel,
          checkpointLocation,
          startGate);
    }
  }
}
