package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.testkit.OrdersFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The flink-cdc#1061 trigger is read from the changelog's commit of the restored checkpoint. */
class SnapshotSplitHazardTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String FAULT = "srl-fault-1-task-exception";

  /**
   * The changelog's commits: checkpoint 2 at T0+0s holding 3 snapshot rows, checkpoint 3 at T0+1s
   * holding 5 more.
   */
  private static final Commits TABLE = new Commits(List.of(3, 5), List.of(2L, 3L));

  @Test
  void aCheckpointCommittedMidSnapshotBeforeTheFailureIsTheTrigger() throws Exception {
    Map<String, String> details = SnapshotSplitHazard.details(TABLE, FAULT, failedAt(10), 4, 24);

    assertThat(details)
        .containsEntry("checkpoint_committed_before_failure", "3")
        .containsEntry("snapshot_rows_committed_before_failure", "8")
        .containsEntry("snapshot_split_size", "4")
        .containsEntry("failed_at", T0.plusSeconds(10).toString());
    assertThat(details.get("hazard_reached")).startsWith("yes: checkpoint 3 completed and was");
    assertThat(details.get("upstream_regression")).contains("apache/flink-cdc#1061", "3.5.0");
  }

  @Test
  void onlyCommitsBeforeTheFailureCount() throws Exception {
    // failed between the two commits: checkpoint 2's 3 rows
    assertThat(SnapshotSplitHazard.details(TABLE, FAULT, failedAtMillis(500), 4, 24))
        .containsEntry("checkpoint_committed_before_failure", "2")
        .containsEntry("snapshot_rows_committed_before_failure", "3");
  }

  @Test
  void noCommitBeforeTheFailureOrNoSnapshotRowInItIsNoTrigger() throws Exception {
    assertThat(
            SnapshotSplitHazard.details(TABLE, FAULT, failedAtMillis(-1000), 4, 24)
                .get("hazard_reached"))
        .startsWith("no: the changelog committed no checkpoint before the failure");
    Commits empty = new Commits(List.of(0), List.of(2L));
    assertThat(SnapshotSplitHazard.details(empty, FAULT, failedAt(10), 4, 24).get("hazard_reached"))
        .startsWith("no: checkpoint 2, the last committed before the failure, holds no snapshot");
  }

  @Test
  void aFailureNotInTheHistoryIsUnknownNeverNo() throws Exception {
    assertThat(
            SnapshotSplitHazard.details(
                    TABLE, FAULT, Observation.builder(T0.plusSeconds(20), "job").build(), 4, 24)
                .get("hazard_reached"))
        .startsWith("unknown: the job's failure is not in its exception history");
  }

  private static ChangeEvent event(ChangeOp op, long eventId) {
    return new ChangeEvent(
        op,
        eventId,
        null,
        TableSchema.ORDERS.row(
            eventId, "bk-" + eventId, 1L, 100L, "created", eventId, 1, T0.plusSeconds(eventId)),
        SourcePosition.of("mysql-bin.000001", eventId, 0),
        T0);
  }

  private static Observation failedAt(int second) {
    return failedAtMillis(second * 1000L);
  }

  private static Observation failedAtMillis(long millis) {
    return Observation.builder(T0.plusSeconds(30), "job")
        .exceptionHistory(
            List.of(
                new JobFailure(
                    T0.plusMillis(millis),
                    "InjectedFaultException",
                    FAULT + ": fault injected by the reliability lab",
                    null,
                    null,
                    false)))
        .build();
  }

  /** Changelog commits in memory: commit i appends rows.get(i) snapshot rows, by checkpoints(i). */
  private record Commits(List<Integer> rows, List<Long> checkpoints) implements TableAccess {

    @Override
    public RowSet source() {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<SnapshotInfo> snapshots(String table) {
      List<SnapshotInfo> snapshots = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        snapshots.add(
            new SnapshotInfo(
                table, 100 + i, T0.plusSeconds(i), "append", "job", checkpoints.get(i)));
      }
      return snapshots;
    }

    @Override
    public RowSet current(long snapshotId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Changelog changelog(long snapshotId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Changelog changelogAppended(@Nullable Long fromSnapshotExclusive, long toSnapshot) {
      List<ChangeEvent> events = new ArrayList<>();
      long eventId = 1;
      for (int i = 0; i <= toSnapshot - 100; i++) {
        for (int r = 0; r < rows.get(i); r++) {
          events.add(event(ChangeOp.READ, eventId++));
        }
        events.add(event(ChangeOp.CREATE, eventId++));
      }
      return Changelog.of(OrdersFixtures.CHANGELOG, "commits", events);
    }

    @Override
    public String currentTable() {
      return "orders_current";
    }

    @Override
    public String changelogTable() {
      return "orders_changelog";
    }
  }
}
