package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.RowSet;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/** Reads the source table and the pipeline's sink tables for reconciliation. */
@API(status = STABLE)
public interface TableAccess extends PipelineCapability {

  /** The source table at a consistent point. */
  RowSet source() throws Exception;

  /** The snapshots of a sink table, oldest first. */
  List<SnapshotInfo> snapshots(String table) throws Exception;

  /** The current table at a snapshot, with deletes applied. */
  RowSet current(long snapshotId) throws Exception;

  /** The changelog table at a snapshot. */
  Changelog changelog(long snapshotId) throws Exception;

  /**
   * Whether the changelog at a snapshot holds an event with this event id: how the lab measures
   * catch-up. Implementations should push the filter down (file statistics) instead of scanning.
   */
  default boolean changelogContains(long snapshotId, long eventId) throws Exception {
    try (CloseableIterator<ChangeEvent> events = changelog(snapshotId).open()) {
      while (events.hasNext()) {
        if (events.next().eventId() == eventId) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the changelog at a snapshot holds an envelope of this operation and event id: a delete
   * writes no new event id (its envelope carries the deleted image's), so catch-up to a workload
   * that ends with deletes looks for those envelopes. Implementations should push the filter down.
   */
  default boolean changelogContains(long snapshotId, ChangeOp op, long eventId) throws Exception {
    try (CloseableIterator<ChangeEvent> events = changelog(snapshotId).open()) {
      while (events.hasNext()) {
        ChangeEvent event = events.next();
        if (event.op() == op && event.eventId() == eventId) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The changelog rows appended by the snapshots after {@code fromSnapshotExclusive} (null: from
   * the table's first snapshot) up to and including {@code toSnapshotInclusive}: which commit made
   * an event visible, for latency measurement. Implementations read only the appended files.
   */
  Changelog changelogAppended(@Nullable Long fromSnapshotExclusive, long toSnapshotInclusive)
      throws Exception;

  /** The names of the current and changelog tables, e.g. {@code orders_current}. */
  String currentTable();

  String changelogTable();
}
