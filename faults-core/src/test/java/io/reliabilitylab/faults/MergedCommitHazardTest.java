package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The iceberg#11008 trigger is counted from the current table's commits of the two checkpoints. */
class MergedCommitHazardTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /**
   * Checkpoint 3 writes orders 1 and 2; 4 writes order 5; 5 updates order 2, deletes order 1 and
   * writes order 3.
   */
  private static final CurrentStates TABLE =
      new CurrentStates(
          List.of(
              List.of(row(1, 1), row(2, 2)),
              List.of(row(1, 1), row(2, 2), row(5, 9)),
              List.of(row(2, 3), row(3, 4), row(5, 9))),
          List.of(3L, 4L, 5L));

  @Test
  void findsNoKeyChangedInBothWhenTheCheckpointsWroteOtherKeys() throws Exception {
    Map<String, String> details = MergedCommitHazard.details(TABLE, 4, 5);

    assertThat(details)
        .containsEntry("keys_changed_in_checkpoint_4", "1")
        .containsEntry("keys_changed_in_checkpoint_5", "3")
        .containsEntry("keys_changed_in_both_pending_checkpoints", "0");
    assertThat(details.get("hazard_reached")).startsWith("no:");
    assertThat(details.get("upstream_regression")).contains("apache/iceberg#11008", "1.10.0");
  }

  @Test
  void namesTheKeysAMergedCommitWouldHaveBroken() throws Exception {
    Map<String, String> details = MergedCommitHazard.details(TABLE, 3, 5);

    assertThat(details).containsEntry("keys_changed_in_both_pending_checkpoints", "2");
    assertThat(details.get("hazard_reached")).startsWith("yes:").contains("order_id 1, 2");
  }

  @Test
  void saysWhichCheckpointTheTableNeverCommitted() throws Exception {
    assertThat(MergedCommitHazard.details(TABLE, 5, 6))
        .containsEntry(
            "keys_changed_in_both_pending_checkpoints",
            "unknown: the current table holds no commit of checkpoint 6");
  }

  private static Row row(long orderId, long eventId) {
    return TableSchema.ORDERS.row(
        orderId, "bk-" + orderId, 1L, 100L, "created", eventId, 1, T0.plusSeconds(eventId));
  }

  /** A current table's snapshots in memory, snapshot i committed by checkpoints.get(i). */
  private record CurrentStates(List<List<Row>> states, List<Long> checkpoints)
      implements TableAccess {

    @Override
    public RowSet source() {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<SnapshotInfo> snapshots(String table) {
      List<SnapshotInfo> snapshots = new ArrayList<>();
      for (int i = 0; i < states.size(); i++) {
        snapshots.add(
            new SnapshotInfo(
                table, 100 + i, T0.plusSeconds(i), "overwrite", "job", checkpoints.get(i)));
      }
      return snapshots;
    }

    @Override
    public RowSet current(long snapshotId) {
      return RowSet.of(
          TableSchema.ORDERS, "snapshot " + snapshotId, states.get((int) snapshotId - 100));
    }

    @Override
    public Changelog changelog(long snapshotId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Changelog changelogAppended(@Nullable Long fromSnapshotExclusive, long toSnapshot) {
      throw new UnsupportedOperationException();
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
