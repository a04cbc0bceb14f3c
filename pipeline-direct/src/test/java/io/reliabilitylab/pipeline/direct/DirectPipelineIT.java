package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.ChangelogCompletenessCheck;
import io.reliabilitylab.checks.CurrentChangelogConsistencyCheck;
import io.reliabilitylab.checks.EventIdAuditCheck;
import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.direct.job.DirectJob;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The direct pipeline end to end on embedded defaults: MariaDB → Flink CDC → MiniCluster → Iceberg,
 * a seeded workload, catch-up awaited by measurement, then reconciliation against the oracle and
 * the source table.
 */
class DirectPipelineIT {

  private static final Logger LOG = LoggerFactory.getLogger(DirectPipelineIT.class);
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path temp;

  @Test
  void aSeededWorkloadArrivesInBothTablesExactlyOnce() throws Exception {
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(2_000, 42));
    Expectation expected = Oracle.expect(workload);
    ChangeEvent lastEvent = expected.lastEvent().orElseThrow();

    try (EmbeddedMariaDb source = EmbeddedMariaDb.start()) {
      source.resetDatabase();
      OrdersSourceFixture.createOrdersTable(source);
      DirectJobConfig config =
          DirectJobConfig.builder()
              .source(source.endpoint("orders"))
              .settings(
                  s ->
                      s.warehouse(temp.resolve("warehouse"))
                          .checkpointDirectory(temp.resolve("checkpoints")))
              .build();
      LOG.info("Effective configuration: {}", config.effectiveConfiguration());

      try (MiniClusterRunner cluster = MiniClusterRunner.start(MiniClusterSettings.defaults());
          IcebergWarehouse warehouse =
              IcebergWarehouse.open(
                  ((SinkCatalog.Hadoop) config.settings().catalog()).directory())) {
        JobID job = cluster.submit(DirectJob.create(config));
        cluster.awaitRunning(job, DEADLINE);
        // The table is empty; the snapshot phase is over once the binlog reader is connected.
        await(
            "the CDC binlog reader to connect",
            () -> unchecked(() -> OrdersSourceFixture.binlogReaderConnected(source)));
        CheckpointInfo baseline =
            cluster.awaitCompletedCheckpointAfter(job, Instant.now(), DEADLINE);
        LOG.info("Baseline checkpoint {} completed", baseline.id());

        long writeStart = System.currentTimeMillis();
        Map<Long, Long> committedAt = OrdersSourceFixture.write(source, workload);
        long writeEnd = System.currentTimeMillis();

        Table changelogTable =
            warehouse.load(
                TableIdentifier.of(config.settings().namespace(), OrdersTables.CHANGELOG));
        Table currentTable =
            warehouse.load(TableIdentifier.of(config.settings().namespace(), OrdersTables.CURRENT));

        // Catch-up by measurement: follow the changelog's commits until the last event shows.
        Visibility visibility = new Visibility();
        await(
            "the changelog to hold " + lastEvent.identity(),
            () -> visibility.advance(changelogTable, lastEvent.identity()));
        SnapshotInfo changelogSnapshot = visibility.seenIn();
        long checkpointId = requireCheckpoint(changelogSnapshot);
        SnapshotInfo currentSnapshot = awaitSnapshotOfCheckpoint(currentTable, checkpointId);
        assertThat(cluster.status(job)).isEqualTo(JobStatus.RUNNING);
        assertThat(changelogSnapshot.flinkJobId()).isEqualTo(job.toHexString());
        assertThat(currentSnapshot.flinkJobId()).isEqualTo(job.toHexString());

        RowSet actualCurrent =
            IcebergTableReader.current(currentTable, currentSnapshot.snapshotId());
        Changelog actualChangelog =
            IcebergTableReader.changelog(changelogTable, changelogSnapshot.snapshotId());

        List<Row> icebergRows = sorted(readAll(actualCurrent));
        List<Row> sourceRows = OrdersSourceFixture.read(source, actualCurrent.schema());
        assertThat(icebergRows).containsExactlyElementsOf(expected.currentRows());
        assertThat(icebergRows).containsExactlyElementsOf(sourceRows);
        assertThat(identities(readAll(actualChangelog)))
            .containsExactlyInAnyOrderElementsOf(identities(expected.events()));

        CheckContext context =
            CheckContext.builder(DeliverySemantics.EXACTLY_ONCE)
                .expectedCurrent(expected.current())
                .actualCurrent(actualCurrent)
                .expectedChangelog(expected.changelog())
                .actualChangelog(actualChangelog)
                .checkpointId(checkpointId)
                .workDirectory(temp)
                .build();
        for (ReconciliationCheck check :
            List.of(
                new SnapshotDiffCheck(),
                new ChangelogCompletenessCheck(),
                new EventIdAuditCheck(),
                new CurrentChangelogConsistencyCheck())) {
          CheckResult result = check.check(context);
          LOG.info("{}: {} — {}", result.check(), result.verdict(), result.summary());
          assertThat(result.verdict()).as(result.toString()).isEqualTo(Verdict.PASSED);
        }
        // The source table read by JDBC as the expected side, too.
        CheckResult againstSource =
            new SnapshotDiffCheck()
                .check(
                    context.toBuilder()
                        .expectedCurrent(
                            RowSet.of(actualCurrent.schema(), "jdbc lab.orders", sourceRows))
                        .build());
        assertThat(againstSource.verdict()).as(againstSource.toString()).isEqualTo(Verdict.PASSED);

        report(expected, committedAt, visibility, writeStart, writeEnd, cluster, job);
        assertThat(cluster.exceptionHistory(job)).isEmpty();
        assertThat(cluster.restartCount(job)).isZero();
        String savepoint = cluster.stopWithSavepoint(job, temp.resolve("savepoints"));
        LOG.info("Stopped with savepoint {}", savepoint);
        assertThat(savepoint).contains("savepoints");
        assertThat(cluster.status(job)).isEqualTo(JobStatus.FINISHED);
      }
    }
  }

  private static void report(
      Expectation expected,
      Map<Long, Long> committedAt,
      Visibility visibility,
      long writeStart,
      long writeEnd,
      MiniClusterRunner cluster,
      JobID job)
      throws Exception {
    List<Long> latencies = new ArrayList<>();
    for (ChangeEvent event : expected.events()) {
      Long committed = committedAt.get(event.eventId());
      Long visible = visibility.visibleAt.get(event.identity());
      if (event.op() == ChangeOp.CREATE && committed != null && visible != null) {
        latencies.add(visible - committed);
      }
    }
    latencies.sort(Comparator.naturalOrder());
    long lastVisible = visibility.seenIn().committedAt().toEpochMilli();
    double seconds = Math.max(1, lastVisible - writeStart) / 1000.0;
    List<CheckpointInfo> checkpoints = cluster.checkpoints(job);
    String figures =
        String.format(
            "direct pipeline: %d envelopes in %d transactions; source write %d ms; first write ->"
                + " last visible %.2f s = %.0f events/s; insert->visible p50 %d ms, p99 %d ms, max"
                + " %d ms over %d inserts; %d checkpoints, restarts %d",
            expected.events().size(),
            expected.transactions(),
            writeEnd - writeStart,
            seconds,
            expected.events().size() / seconds,
            percentile(latencies, 0.50),
            percentile(latencies, 0.99),
            latencies.isEmpty() ? -1 : latencies.get(latencies.size() - 1),
            latencies.size(),
            checkpoints.size(),
            cluster.restartCount(job));
    LOG.info(figures);
    System.out.println(figures);
    for (CheckpointInfo checkpoint : checkpoints) {
      LOG.info(
          "checkpoint {} {} triggered at write+{} ms, took {}",
          checkpoint.id(),
          checkpoint.status(),
          checkpoint.triggeredAt().toEpochMilli() - writeStart,
          checkpoint.duration());
    }
    for (Map.Entry<Long, Integer> entry : visibility.appendedPerSnapshot.entrySet()) {
      LOG.info("changelog snapshot {} appended {} rows", entry.getKey(), entry.getValue());
    }
  }

  private static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  /** Follows a changelog table's commits, recording when each envelope first became visible. */
  private static final class Visibility {
    private final Map<String, Long> visibleAt = new HashMap<>();
    private final Map<Long, Integer> appendedPerSnapshot = new java.util.LinkedHashMap<>();
    private @Nullable Long lastSnapshot;
    private @Nullable SnapshotInfo seenIn;

    boolean advance(Table table, String identity) {
      table.refresh();
      for (SnapshotInfo snapshot : IcebergTableReader.snapshots(table)) {
        if (lastSnapshot != null && snapshot.snapshotId() == lastSnapshot) {
          continue;
        }
        if (lastSnapshot != null
            && table.snapshot(snapshot.snapshotId()).sequenceNumber()
                <= table.snapshot(lastSnapshot).sequenceNumber()) {
          continue;
        }
        long committed = snapshot.committedAt().toEpochMilli();
        int appended = 0;
        try (CloseableIterator<ChangeEvent> events =
            IcebergTableReader.changelogAppended(table, lastSnapshot, snapshot.snapshotId())
                .open()) {
          while (events.hasNext()) {
            ChangeEvent event = events.next();
            appended++;
            visibleAt.putIfAbsent(event.identity(), committed);
            if (seenIn == null && event.identity().equals(identity)) {
              seenIn = snapshot;
            }
          }
        }
        lastSnapshot = snapshot.snapshotId();
        appendedPerSnapshot.put(snapshot.committedCheckpointId(), appended);
      }
      return seenIn != null;
    }

    SnapshotInfo seenIn() {
      if (seenIn == null) {
        throw new IllegalStateException("The awaited event was not seen");
      }
      return seenIn;
    }
  }

  private static long requireCheckpoint(SnapshotInfo snapshot) {
    assertThat(snapshot.committedCheckpointId())
        .as("flink.max-committed-checkpoint-id of " + snapshot)
        .isNotNull();
    return snapshot.committedCheckpointId();
  }

  /** The current table's latest snapshot committed by checkpoint {@code checkpointId}. */
  private static SnapshotInfo awaitSnapshotOfCheckpoint(Table table, long checkpointId)
      throws Exception {
    SnapshotInfo[] found = new SnapshotInfo[1];
    await(
        "orders_current to commit checkpoint " + checkpointId,
        () -> {
          table.refresh();
          for (SnapshotInfo snapshot : IcebergTableReader.snapshots(table)) {
            Long committed = snapshot.committedCheckpointId();
            if (committed != null && committed == checkpointId) {
              found[0] = snapshot;
            }
          }
          return found[0] != null;
        });
    return found[0];
  }

  private static List<Row> readAll(RowSet rows) {
    List<Row> all = new ArrayList<>();
    try (CloseableIterator<Row> iterator = rows.open()) {
      iterator.forEachRemaining(all::add);
    }
    return all;
  }

  private static List<ChangeEvent> readAll(Changelog changelog) {
    List<ChangeEvent> all = new ArrayList<>();
    try (CloseableIterator<ChangeEvent> iterator = changelog.open()) {
      iterator.forEachRemaining(all::add);
    }
    return all;
  }

  private static List<Row> sorted(List<Row> rows) {
    List<Row> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Row::key));
    return copy;
  }

  private static List<String> identities(List<ChangeEvent> events) {
    return events.stream().map(ChangeEvent::identity).toList();
  }

  private interface SqlCheck {
    boolean get() throws Exception;
  }

  private static boolean unchecked(SqlCheck check) {
    try {
      return check.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("Waited " + DEADLINE + " for " + what);
      }
      Thread.sleep(50);
    }
  }
}
