package io.reliabilitylab.pipeline.flink.maintenance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.spi.pipeline.MaintenanceReport;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.RewriteDataFilesActionResult;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.flink.actions.Actions;
import org.apache.iceberg.flink.actions.RewriteDataFilesAction;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts an Iceberg table with Iceberg's own rewrite-data-files action for Flink ({@link
 * RewriteDataFilesAction}) while a streaming upsert job keeps committing to it.
 *
 * <p>Safe beside the job because the rewritten files keep the <em>data sequence number</em> of the
 * snapshot the rewrite started from ({@code useStartingSequenceNumber(true)}, which sets {@code
 * RewriteFiles.dataSequenceNumber}): equality deletes the job commits meanwhile carry a higher
 * sequence number and still apply to them. Iceberg 1.10 can still drop such a delete with the
 * rewrite's commit (fixed by the open apache/iceberg PR #10962; see {@link ConcurrentDeleteGuard});
 * a guard refuses that commit. Every commit conflict (the guard's refusal, the rewrite's own
 * validation, e.g. apache/iceberg#5404 "found new delete for replaced data file", or commit retries
 * running out) is recorded in {@link MaintenanceReport#conflicts()}, one line each, and the rewrite
 * is planned and run again up to {@link Builder#attempts(int)} times; a conflict is never thrown.
 * No snapshot is expired: the Flink committer finds its last committed checkpoint by walking the
 * current snapshot's ancestors ({@code flink.max-committed-checkpoint-id}), and those must stay.
 *
 * <p>The action rewrites the files in a bounded Flink job. By default that job runs on a local
 * environment in this JVM: a MiniCluster started for each attempt (one to a few seconds, more for
 * the first in a busy JVM), apart from the pipeline's cluster so it takes none of the job's slots.
 *
 * <pre>{@code
 * TableMaintenance maintenance =
 *     IcebergTableMaintenance.builder(warehouse, "lab").parallelism(1).attempts(3).build();
 * MaintenanceReport report = maintenance.compact("orders_current");
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class IcebergTableMaintenance implements TableMaintenance {

  /** The action name in every report. */
  public static final String ACTION = "rewrite-data-files";

  /** Snapshot summary entry naming the maintenance run (and attempt) that committed a snapshot. */
  public static final String MAINTENANCE_RUN = "lab.maintenance-run";

  private static final Logger LOG = LoggerFactory.getLogger(IcebergTableMaintenance.class);
  private static final int CONFLICT_LINE_LIMIT = 400;
  private static final int LISTED_COMMITS_LIMIT = 20;
  private static final List<String> REWRITE_SUMMARY_KEYS =
      List.of(
          SnapshotSummary.DELETED_FILES_PROP,
          SnapshotSummary.ADDED_FILES_PROP,
          SnapshotSummary.DELETED_RECORDS_PROP,
          SnapshotSummary.ADDED_RECORDS_PROP,
          SnapshotSummary.REMOVED_DELETE_FILES_PROP,
          SnapshotSummary.REMOVED_EQ_DELETE_FILES_PROP,
          SnapshotSummary.REMOVED_POS_DELETE_FILES_PROP);

  private final Function<String, Table> tables;
  private final int parallelism;
  private final @Nullable Long targetFileSizeBytes;
  private final @Nullable Long splitOpenFileCost;
  private final boolean useStartingSequenceNumber;
  private final int attempts;
  private final @Nullable Supplier<StreamExecutionEnvironment> environment;

  private IcebergTableMaintenance(Builder builder) {
    this.tables = builder.tables;
    this.parallelism = builder.parallelism;
    this.targetFileSizeBytes = builder.targetFileSizeBytes;
    this.splitOpenFileCost = builder.splitOpenFileCost;
    this.useStartingSequenceNumber = builder.useStartingSequenceNumber;
    this.attempts = builder.attempts;
    this.environment = builder.environment;
  }

  /**
   * A builder for maintenance of the tables {@code tables} loads by name, each time with its latest
   * metadata (e.g. a catalog's {@code loadTable}).
   */
  public static Builder builder(Function<String, Table> tables) {
    return new Builder(Objects.requireNonNull(tables, "tables"));
  }

  /** A builder for maintenance of the tables in one namespace of a warehouse. */
  public static Builder builder(IcebergWarehouse warehouse, String namespace) {
    Objects.requireNonNull(warehouse, "warehouse");
    Objects.requireNonNull(namespace, "namespace");
    return new Builder(name -> warehouse.load(TableIdentifier.of(namespace, name)));
  }

  @Override
  public MaintenanceReport compact(String tableName) throws Exception {
    Objects.requireNonNull(tableName, "table");
    Instant startedAt = Instant.now();
    long started = System.nanoTime();
    Map<String, String> details = new LinkedHashMap<>(options());
    List<String> conflicts = new ArrayList<>();
    String run = UUID.randomUUID().toString();

    Table table = load(tableName);
    Snapshot starting = table.currentSnapshot();
    if (starting == null) {
      details.put("outcome", "nothing to compact: the table has no snapshot");
      return new MaintenanceReport(
          tableName,
          ACTION,
          startedAt,
          Instant.now(),
          null,
          null,
          Map.of(),
          Map.of(),
          conflicts,
          details);
    }
    int snapshotsBefore = count(table.snapshots());
    Map<String, Long> before = counts(table, starting);
    @Nullable RewriteDataFilesActionResult result = null;
    AtomicInteger commitRetries = new AtomicInteger();
    int attempt = 0;
    while (result == null && attempt < attempts) {
      attempt++;
      if (attempt > 1) {
        table = load(tableName);
        starting = Objects.requireNonNull(table.currentSnapshot(), "current snapshot");
        before = counts(table, starting);
      }
      long rewriteStarted = System.nanoTime();
      try {
        result = rewrite(table, starting, run + "/" + attempt, commitRetries);
      } catch (RuntimeException e) {
        RuntimeException conflict = conflictIn(e);
        if (conflict == null) {
          throw e;
        }
        String line = conflictLine(attempt, starting, conflict);
        conflicts.add(line);
        LOG.warn("Compaction of {} met a commit conflict: {}", tableName, line);
      } finally {
        details.put("attempt_" + attempt + "_ms", Long.toString(millisSince(rewriteStarted)));
      }
    }
    details.put("attempts", Integer.toString(attempt));
    // Lost races with other writers' commits, which Iceberg retried on fresh metadata.
    details.put("commit_retries", Integer.toString(commitRetries.get()));

    Table latest = load(tableName);
    Snapshot committed = null;
    if (result == null) {
      details.put(
          "outcome",
          "not committed: every attempt met a commit conflict; the table keeps its files");
    } else if (result.deletedDataFiles().isEmpty() && result.addedDataFiles().isEmpty()) {
      details.put("outcome", "nothing to rewrite: no two data files to combine");
    } else {
      committed = snapshotOfRun(latest, run + "/" + attempt);
      details.put(
          "outcome",
          "committed: "
              + result.deletedDataFiles().size()
              + " data files rewritten into "
              + result.addedDataFiles().size());
      details.put("rewritten_data_files", Integer.toString(result.deletedDataFiles().size()));
      details.put("added_data_files", Integer.toString(result.addedDataFiles().size()));
      sequenceNumberEvidence(latest, starting, committed, details);
      commitsDuringRewrite(latest, starting, committed, details);
      List<String> dropped = droppedConcurrentDeletes(latest.io(), committed, starting);
      details.put("dropped_concurrent_delete_files", Integer.toString(dropped.size()));
      if (!dropped.isEmpty()) {
        // The guard should have refused this commit; say so loudly rather than hide it.
        conflicts.add(
            "committed snapshot "
                + committed.snapshotId()
                + " dropped delete files committed after the rewrite started, so rows they deleted"
                + " are visible again (apache/iceberg PR #10962, open): "
                + String.join(", ", dropped));
      }
    }
    Snapshot afterSnapshot = committed != null ? committed : latest.currentSnapshot();
    Map<String, Long> after = afterSnapshot == null ? Map.of() : counts(latest, afterSnapshot);
    if (afterSnapshot != null) {
      details.put("after_counts_snapshot", Long.toString(afterSnapshot.snapshotId()));
    }
    details.put("snapshots_before", Integer.toString(snapshotsBefore));
    details.put("snapshots_after", Integer.toString(count(latest.snapshots())));
    details.put(
        "expire_snapshots",
        "not run: every snapshot is kept, so the Flink committer's"
            + " flink.max-committed-checkpoint-id lookup still finds its last commit");
    details.put("flink_committer_lookup", committerLookup(latest));
    details.put("duration_ms", Long.toString(millisSince(started)));
    MaintenanceReport report =
        new MaintenanceReport(
            tableName,
            ACTION,
            startedAt,
            Instant.now(),
            starting.snapshotId(),
            committed == null ? null : committed.snapshotId(),
            before,
            after,
            conflicts,
            details);
    LOG.info(
        "Compacted {}: {} in {} ms, data files {} -> {}, delete files {} -> {}, conflicts {}",
        tableName,
        details.get("outcome"),
        details.get("duration_ms"),
        before.get("data_files"),
        after.get("data_files"),
        before.get("delete_files"),
        after.get("delete_files"),
        conflicts.size());
    return report;
  }

  private Table load(String tableName) {
    try {
      return tables.apply(tableName);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot load the Iceberg table '"
              + tableName
              + "' to compact it: "
              + e.getMessage()
              + "; name one of the pipeline's tables, e.g. orders_current",
          e);
    }
  }

  private RewriteDataFilesActionResult rewrite(
      Table table, Snapshot starting, String marker, AtomicInteger commitRetries) {
    Table target =
        table instanceof HasTableOperations withOperations
            ? new BaseTable(
                new ConcurrentDeleteGuard(
                    withOperations.operations(),
                    useStartingSequenceNumber ? starting.sequenceNumber() : null,
                    commitRetries),
                table.name(),
                report -> {})
            : table;
    RewriteDataFilesAction action =
        Actions.forTable(environment == null ? localEnvironment() : environment.get(), target)
            .rewriteDataFiles();
    action.maxParallelism(parallelism);
    action.useStartingSequenceNumber(useStartingSequenceNumber);
    if (targetFileSizeBytes != null) {
      action.targetSizeInBytes(targetFileSizeBytes);
    }
    if (splitOpenFileCost != null) {
      action.splitOpenFileCost(splitOpenFileCost);
    }
    action.set(MAINTENANCE_RUN, marker);
    return action.execute();
  }

  private StreamExecutionEnvironment localEnvironment() {
    Configuration configuration = new Configuration();
    // As Iceberg's own Actions.CONFIG: a job that leaves its class loader open must not fail.
    configuration.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
    configuration.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    return StreamExecutionEnvironment.createLocalEnvironment(parallelism, configuration);
  }

  /**
   * The delete files a rewrite snapshot removes although they were committed after the snapshot the
   * rewrite started from: they still apply to the rewritten files (which keep the starting data
   * sequence number), so dropping them brings deleted rows back.
   */
  static List<String> droppedConcurrentDeletes(FileIO io, Snapshot rewrite, Snapshot starting) {
    List<String> dropped = new ArrayList<>();
    for (DeleteFile file : rewrite.removedDeleteFiles(io)) {
      Long sequenceNumber = file.dataSequenceNumber();
      if (sequenceNumber != null && sequenceNumber > starting.sequenceNumber()) {
        dropped.add(file.location() + " (data sequence number " + sequenceNumber + ")");
      }
    }
    return dropped;
  }

  /**
   * Table operations that count lost commit races and, with the starting sequence number in force,
   * refuse to commit a rewrite snapshot dropping delete files committed after the rewrite's
   * starting snapshot. Iceberg 1.10 drops delete files older than the oldest data file it keeps,
   * and does not count the rewritten files, which keep the starting (older) data sequence number:
   * an equality delete committed alone during the rewrite, followed by any later commit, is then
   * dropped although it still applies to them (apache/iceberg PR #10962, open). The check runs on
   * the exact metadata being committed, so it holds on every commit retry; the refusal is a {@link
   * ValidationException}, which the action cleans up after and the caller reports.
   */
  private static final class ConcurrentDeleteGuard implements TableOperations {
    private final TableOperations delegate;
    private final @Nullable Long startingSequenceNumber;
    private final AtomicInteger commitRetries;

    ConcurrentDeleteGuard(
        TableOperations delegate,
        @Nullable Long startingSequenceNumber,
        AtomicInteger commitRetries) {
      this.delegate = delegate;
      this.startingSequenceNumber = startingSequenceNumber;
      this.commitRetries = commitRetries;
    }

    @Override
    public void commit(@Nullable TableMetadata base, TableMetadata metadata) {
      Snapshot snapshot = metadata.currentSnapshot();
      if (startingSequenceNumber != null
          && snapshot != null
          && DataOperations.REPLACE.equals(snapshot.operation())
          && (base == null || base.snapshot(snapshot.snapshotId()) == null)) {
        List<String> dropped = new ArrayList<>();
        for (DeleteFile file : snapshot.removedDeleteFiles(delegate.io())) {
          Long sequenceNumber = file.dataSequenceNumber();
          if (sequenceNumber != null && sequenceNumber > startingSequenceNumber) {
            dropped.add(Long.toString(sequenceNumber));
          }
        }
        if (!dropped.isEmpty()) {
          throw new ValidationException(
              "Refusing to commit the rewrite: it would drop %s delete file(s) committed after"
                  + " its starting snapshot (data sequence numbers %s > %s), and the rows they"
                  + " delete would come back (apache/iceberg PR #10962, open)",
              dropped.size(), dropped, startingSequenceNumber);
        }
      }
      try {
        delegate.commit(base, metadata);
      } catch (CommitFailedException e) {
        commitRetries.incrementAndGet();
        throw e;
      }
    }

    @Override
    public TableMetadata current() {
      return delegate.current();
    }

    @Override
    public TableMetadata refresh() {
      return delegate.refresh();
    }

    @Override
    public FileIO io() {
      return delegate.io();
    }

    @Override
    public EncryptionManager encryption() {
      return delegate.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return delegate.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return delegate.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommittedMetadata) {
      return delegate.temp(uncommittedMetadata);
    }

    @Override
    public long newSnapshotId() {
      return delegate.newSnapshotId();
    }

    @Override
    public boolean requireStrictCleanup() {
      return delegate.requireStrictCleanup();
    }
  }

  /** The commit conflict behind a failure, or null if the failure is something else. */
  private static @Nullable RuntimeException conflictIn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ValidationException || t instanceof CommitFailedException) {
        return (RuntimeException) t;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  private static String conflictLine(int attempt, Snapshot starting, RuntimeException conflict) {
    String message = String.valueOf(conflict.getMessage()).replaceAll("\\s+", " ").trim();
    String line =
        "attempt "
            + attempt
            + " from snapshot "
            + starting.snapshotId()
            + " (sequence number "
            + starting.sequenceNumber()
            + "): "
            + conflict.getClass().getSimpleName()
            + ": "
            + message;
    return line.length() <= CONFLICT_LINE_LIMIT
        ? line
        : line.substring(0, CONFLICT_LINE_LIMIT - 1) + "…";
  }

  private static Snapshot snapshotOfRun(Table table, String marker) {
    for (Snapshot snapshot : table.snapshots()) {
      Map<String, String> summary = snapshot.summary();
      if (summary != null && marker.equals(summary.get(MAINTENANCE_RUN))) {
        return snapshot;
      }
    }
    throw new IllegalStateException(
        "The rewrite of "
            + table.name()
            + " committed, but no snapshot carries "
            + MAINTENANCE_RUN
            + "="
            + marker
            + ": another process may have expired it");
  }

  /**
   * Records the data sequence numbers of the files the rewrite added: with the starting sequence
   * number in force they all equal the sequence number of the snapshot the rewrite read, below the
   * sequence number of the rewrite's own snapshot.
   */
  private static void sequenceNumberEvidence(
      Table table, Snapshot starting, Snapshot committed, Map<String, String> details) {
    Set<Long> dataSequenceNumbers = new TreeSet<>();
    for (DataFile file : committed.addedDataFiles(table.io())) {
      Long number = file.dataSequenceNumber();
      dataSequenceNumbers.add(number == null ? -1L : number);
    }
    details.put("starting_sequence_number", Long.toString(starting.sequenceNumber()));
    details.put("committed_sequence_number", Long.toString(committed.sequenceNumber()));
    details.put("added_files_data_sequence_numbers", dataSequenceNumbers.toString());
    details.put(
        "data_sequence_number_kept",
        Boolean.toString(dataSequenceNumbers.equals(Set.of(starting.sequenceNumber()))));
  }

  /**
   * Records what the rewrite snapshot itself changed (from its summary) and the snapshots other
   * writers committed between the rewrite's start and its commit, with the files they added: the
   * after counts are those of the rewrite snapshot, so they include these commits.
   */
  private static void commitsDuringRewrite(
      Table table, Snapshot starting, Snapshot committed, Map<String, String> details) {
    Map<String, String> own = committed.summary() == null ? Map.of() : committed.summary();
    List<String> changed = new ArrayList<>();
    for (String key : REWRITE_SUMMARY_KEYS) {
      if (own.containsKey(key)) {
        changed.add(key + "=" + own.get(key));
      }
    }
    details.put("rewrite_snapshot_changes", String.join(", ", changed));
    List<String> between = new ArrayList<>();
    long addedDataFiles = 0;
    long addedDeleteFiles = 0;
    Long parent = committed.parentId();
    while (parent != null && parent != starting.snapshotId()) {
      Snapshot snapshot = table.snapshot(parent);
      if (snapshot == null) {
        break;
      }
      between.add(describe(snapshot));
      Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
      addedDataFiles += Math.max(0, total(summary, SnapshotSummary.ADDED_FILES_PROP));
      addedDeleteFiles += Math.max(0, total(summary, SnapshotSummary.ADDED_DELETE_FILES_PROP));
      parent = snapshot.parentId();
    }
    Collections.reverse(between);
    details.put("commits_during_rewrite", Integer.toString(between.size()));
    details.put("commits_during_rewrite_added_data_files", Long.toString(addedDataFiles));
    details.put("commits_during_rewrite_added_delete_files", Long.toString(addedDeleteFiles));
    if (!between.isEmpty()) {
      details.put(
          "commits_during_rewrite_list",
          String.join(", ", between.subList(0, Math.min(between.size(), LISTED_COMMITS_LIMIT)))
              + (between.size() > LISTED_COMMITS_LIMIT ? ", …" : ""));
    }
  }

  private static String describe(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    String checkpoint =
        summary == null ? null : summary.get(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID);
    return snapshot.snapshotId()
        + " "
        + snapshot.operation()
        + (checkpoint == null ? "" : " checkpoint " + checkpoint);
  }

  /**
   * What the Flink committer's max-committed-checkpoint lookup finds now: it walks back from the
   * current snapshot to the first one a Flink job committed.
   */
  private static String committerLookup(Table table) {
    int skipped = 0;
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      Map<String, String> summary = snapshot.summary();
      String checkpoint =
          summary == null
              ? null
              : summary.get(IcebergTableReader.FLINK_MAX_COMMITTED_CHECKPOINT_ID);
      if (checkpoint != null) {
        return "checkpoint "
            + checkpoint
            + " of job "
            + summary.get(IcebergTableReader.FLINK_JOB_ID)
            + " in snapshot "
            + snapshot.snapshotId()
            + ", past "
            + skipped
            + " newer snapshot(s) without a checkpoint";
      }
      skipped++;
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    return "no snapshot committed by a Flink job in the current snapshot's ancestry ("
        + skipped
        + " snapshots walked)";
  }

  /**
   * The snapshot's totals from its summary ({@code data_files}, {@code delete_files}, {@code
   * records} in data files, {@code equality_delete_records}, {@code position_delete_records},
   * {@code files_size_bytes}) and, from planning a scan, the delete files that still apply to some
   * data file ({@code applicable_delete_files}, {@code applicable_equality_delete_files}).
   */
  private static Map<String, Long> counts(Table table, Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("data_files", total(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP));
    counts.put("delete_files", total(summary, SnapshotSummary.TOTAL_DELETE_FILES_PROP));
    counts.put("records", total(summary, SnapshotSummary.TOTAL_RECORDS_PROP));
    counts.put("equality_delete_records", total(summary, SnapshotSummary.TOTAL_EQ_DELETES_PROP));
    counts.put("position_delete_records", total(summary, SnapshotSummary.TOTAL_POS_DELETES_PROP));
    counts.put("files_size_bytes", total(summary, SnapshotSummary.TOTAL_FILE_SIZE_PROP));
    Set<String> deletes = new HashSet<>();
    Set<String> equalityDeletes = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          deletes.add(delete.location());
          if (delete.content() == FileContent.EQUALITY_DELETES) {
            equalityDeletes.add(delete.location());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot plan a scan of " + table.name() + " at snapshot " + snapshot.snapshotId(), e);
    }
    counts.put("applicable_delete_files", (long) deletes.size());
    counts.put("applicable_equality_delete_files", (long) equalityDeletes.size());
    return counts;
  }

  private static long total(Map<String, String> summary, String key) {
    String value = summary.get(key);
    return value == null ? -1L : Long.parseLong(value);
  }

  private Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put(
        "api",
        RewriteDataFilesAction.class.getName() + " (Iceberg " + IcebergBuild.version() + ")");
    options.put("use_starting_sequence_number", Boolean.toString(useStartingSequenceNumber));
    options.put(
        "target_file_size_bytes",
        targetFileSizeBytes == null
            ? "the table's " + TableProperties.WRITE_TARGET_FILE_SIZE_BYTES
            : Long.toString(targetFileSizeBytes));
    options.put(
        "split_open_file_cost",
        splitOpenFileCost == null
            ? "the table's " + TableProperties.SPLIT_OPEN_FILE_COST
            : Long.toString(splitOpenFileCost));
    options.put(
        "concurrent_delete_guard",
        useStartingSequenceNumber
            ? "on: a rewrite commit that would drop delete files committed during the rewrite is"
                + " refused (apache/iceberg PR #10962, open)"
            : "off (not needed without the starting sequence number)");
    options.put("parallelism", Integer.toString(parallelism));
    options.put("attempts_allowed", Integer.toString(attempts));
    options.put(
        "environment",
        environment == null
            ? "a local Flink MiniCluster in this JVM, started per attempt, batch mode"
            : "supplied by the caller");
    return options;
  }

  private static int count(Iterable<?> items) {
    int count = 0;
    for (Object ignored : items) {
      count++;
    }
    return count;
  }

  private static long millisSince(long nanos) {
    return Duration.ofNanos(System.nanoTime() - nanos).toMillis();
  }

  /**
   * Configures an {@link IcebergTableMaintenance}.
   *
   * <pre>{@code
   * IcebergTableMaintenance maintenance =
   *     IcebergTableMaintenance.builder(name -> catalog.loadTable(TableIdentifier.of("lab", name)))
   *         .targetFileSizeBytes(128L << 20)
   *         .parallelism(1)
   *         .attempts(3)
   *         .build();
   * }</pre>
   */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private final Function<String, Table> tables;
    private int parallelism = 1;
    private @Nullable Long targetFileSizeBytes;
    private @Nullable Long splitOpenFileCost;
    private boolean useStartingSequenceNumber = true;
    private int attempts = 3;
    private @Nullable Supplier<StreamExecutionEnvironment> environment;

    private Builder(Function<String, Table> tables) {
      this.tables = tables;
    }

    /** The rewrite job's parallelism; default 1. */
    public Builder parallelism(int parallelism) {
      if (parallelism < 1) {
        throw new IllegalArgumentException(
            "The rewrite's parallelism must be at least 1, got " + parallelism);
      }
      this.parallelism = parallelism;
      return this;
    }

    /** The size of the files the rewrite writes; default the table's target file size. */
    public Builder targetFileSizeBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException(
            "The target file size must be positive, got " + bytes + " bytes");
      }
      this.targetFileSizeBytes = bytes;
      return this;
    }

    /**
     * The least weight of a file, and of each delete file applying to it, when files are packed
     * into rewrite groups; default the table's {@code read.split.open-file-cost} (4 MiB). A file
     * with many equality deletes weighs (1 + deletes) times this, so with the default a heavily
     * updated table is rewritten into several files; a small value packs by bytes alone.
     */
    public Builder splitOpenFileCost(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException(
            "The split open-file cost must be positive, got " + bytes + " bytes");
      }
      this.splitOpenFileCost = bytes;
      return this;
    }

    /**
     * Whether rewritten files keep the starting snapshot's data sequence number; default true.
     * False only to show the hazard it avoids: a concurrent equality delete then makes the commit
     * fail (apache/iceberg#5404), reported as a conflict.
     */
    public Builder useStartingSequenceNumber(boolean use) {
      this.useStartingSequenceNumber = use;
      return this;
    }

    /** How many times a conflicting rewrite is planned and run again; default 3. */
    public Builder attempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException(
            "A compaction needs at least 1 attempt, got " + attempts);
      }
      this.attempts = attempts;
      return this;
    }

    /**
     * Where the rewrite job runs, e.g. a remote environment of a session cluster; default a local
     * MiniCluster in this JVM. Called once per attempt.
     */
    public Builder environment(Supplier<StreamExecutionEnvironment> environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    public IcebergTableMaintenance build() {
      return new IcebergTableMaintenance(this);
    }
  }
}
