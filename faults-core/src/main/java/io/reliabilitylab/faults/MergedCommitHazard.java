package io.reliabilitylab.faults;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a run of {@code sink-commit-failure:several-pending} reached the trigger of
 * apache/iceberg#11008: two pending checkpoints whose results, merged into one commit, would lose
 * an equality delete. A merged {@code RowDelta} gives the second checkpoint's equality deletes the
 * first one's sequence number, so they do not delete its rows: a key written in checkpoint N and
 * changed again in N+1 would keep N's row. The keys changed in both, read from the changelog's
 * commits of N and N+1, are the keys such a merge would have broken; none means the run could not
 * have shown the bug.
 */
final class MergedCommitHazard {

  /** The upstream issue this scenario guards against regressing, and the pinned fix. */
  static final String ISSUE =
      "apache/iceberg#11008 (fixed in the pinned Iceberg 1.10.0: the committer commits each pending"
          + " checkpoint in a commit of its own)";

  private static final int SAMPLE = 5;

  private MergedCommitHazard() {}

  /** Details for the run record: the keys changed in both checkpoints, or why they are unknown. */
  static Map<String, String> details(TableAccess tables, long held, long next) throws Exception {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("upstream_regression", ISSUE);
    List<SnapshotInfo> snapshots = new ArrayList<>(tables.snapshots(tables.currentTable()));
    Integer heldAt = null;
    Integer nextAt = null;
    for (int i = 0; i < snapshots.size(); i++) {
      Long checkpoint = snapshots.get(i).committedCheckpointId();
      if (heldAt == null && Long.valueOf(held).equals(checkpoint)) {
        heldAt = i;
      } else if (heldAt != null && nextAt == null && Long.valueOf(next).equals(checkpoint)) {
        nextAt = i;
      }
    }
    if (heldAt == null || nextAt == null) {
      details.put(
          "keys_changed_in_both_pending_checkpoints",
          "unknown: the current table holds no commit of checkpoint "
              + (heldAt == null ? held : next));
      return details;
    }
    Map<RowKey, Long> before =
        heldAt == 0 ? Map.of() : versions(tables, snapshots.get(heldAt - 1).snapshotId());
    Map<RowKey, Long> afterHeld = versions(tables, snapshots.get(heldAt).snapshotId());
    Map<RowKey, Long> afterNext = versions(tables, snapshots.get(nextAt).snapshotId());
    Set<RowKey> heldKeys = changed(before, afterHeld);
    Set<RowKey> nextKeys = changed(afterHeld, afterNext);
    Set<RowKey> both = new TreeSet<>(heldKeys);
    both.retainAll(nextKeys);
    details.put("keys_changed_in_checkpoint_" + held, Integer.toString(heldKeys.size()));
    details.put("keys_changed_in_checkpoint_" + next, Integer.toString(nextKeys.size()));
    details.put("keys_changed_in_both_pending_checkpoints", Integer.toString(both.size()));
    List<String> sample = new ArrayList<>();
    for (RowKey key : both) {
      if (sample.size() == SAMPLE) {
        break;
      }
      sample.add(key.toString());
    }
    details.put(
        "hazard_reached",
        both.isEmpty()
            ? "no: no key changed in both checkpoints, so a merged commit would have lost nothing"
            : "yes: a merged commit would have kept checkpoint "
                + held
                + "'s rows of order_id "
                + String.join(", ", sample)
                + (both.size() > SAMPLE ? " and " + (both.size() - SAMPLE) + " more" : ""));
    return details;
  }

  /** Each key's version (its row's event id, or -1 without one) in the current table. */
  private static Map<RowKey, Long> versions(TableAccess tables, long snapshotId) throws Exception {
    Map<RowKey, Long> versions = new HashMap<>();
    try (CloseableIterator<Row> rows = tables.current(snapshotId).open()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        versions.put(row.key(), row.eventId() == null ? -1L : row.eventId());
      }
    }
    return versions;
  }

  /** The keys written, replaced or deleted between two states. */
  private static Set<RowKey> changed(Map<RowKey, Long> before, Map<RowKey, Long> after) {
    Set<RowKey> changed = new HashSet<>();
    after.forEach(
        (key, version) -> {
          if (!version.equals(before.get(key))) {
            changed.add(key);
          }
        });
    before.keySet().stream().filter(key -> !after.containsKey(key)).forEach(changed::add);
    return changed;
  }
}
