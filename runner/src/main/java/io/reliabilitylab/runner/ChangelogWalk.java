package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Walks the changelog table's snapshots in commit order, reading only what each snapshot appended,
 * so that every event is seen once together with the snapshot that first made it visible.
 */
@API(status = INTERNAL)
public final class ChangelogWalk {

  /** Sees each event of a newly walked snapshot. */
  @FunctionalInterface
  public interface Visitor {
    void visit(SnapshotInfo snapshot, ChangeEvent event);
  }

  private final TableAccess tables;
  private @Nullable Long lastWalked;

  public ChangelogWalk(TableAccess tables) {
    this.tables = tables;
  }

  /**
   * Walks the snapshots committed since the last walk, up to and including {@code upTo} (null: the
   * latest); returns the last snapshot walked, or null when none was new.
   */
  public @Nullable SnapshotInfo walk(@Nullable Long upTo, Visitor visitor) throws Exception {
    List<SnapshotInfo> snapshots = tables.snapshots(tables.changelogTable());
    int start = 0;
    if (lastWalked != null) {
      start = indexOf(snapshots, lastWalked) + 1;
    }
    SnapshotInfo walked = null;
    for (int i = start; i < snapshots.size(); i++) {
      SnapshotInfo snapshot = snapshots.get(i);
      try (CloseableIterator<ChangeEvent> events =
          tables.changelogAppended(lastWalked, snapshot.snapshotId()).open()) {
        while (events.hasNext()) {
          visitor.visit(snapshot, events.next());
        }
      }
      lastWalked = snapshot.snapshotId();
      walked = snapshot;
      if (upTo != null && snapshot.snapshotId() == upTo) {
        break;
      }
    }
    return walked;
  }

  /** Walks every snapshot committed since the last walk. */
  public @Nullable SnapshotInfo walk(Visitor visitor) throws Exception {
    return walk(null, visitor);
  }

  private static int indexOf(List<SnapshotInfo> snapshots, long snapshotId) {
    for (int i = 0; i < snapshots.size(); i++) {
      if (snapshots.get(i).snapshotId() == snapshotId) {
        return i;
      }
    }
    throw new IllegalStateException(
        "Changelog snapshot "
            + snapshotId
            + " is gone (expired?): the lab reads each snapshot's appended files and needs the"
            + " history kept while it measures");
  }
}
