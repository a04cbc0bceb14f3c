package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What one maintenance run did to a table: its files before and after, the snapshot it started from
 * and the one it committed (null when nothing was committed), and each commit conflict met.
 *
 * @param table the table's name
 * @param action the maintenance action, e.g. {@code rewrite-data-files}
 * @param startedAt when the action started
 * @param finishedAt when it finished
 * @param snapshotBefore the snapshot the action read, or null for an empty table
 * @param snapshotAfter the snapshot the action committed, or null if it committed nothing
 * @param before file counts before: {@code data_files}, {@code delete_files}, {@code records}...
 * @param after file counts after, the same keys
 * @param conflicts each commit conflict met, one line each (empty when there was none)
 * @param details further facts (options used, rewritten file groups, retries)
 */
@API(status = EXPERIMENTAL)
public record MaintenanceReport(
    String table,
    String action,
    Instant startedAt,
    Instant finishedAt,
    @Nullable Long snapshotBefore,
    @Nullable Long snapshotAfter,
    Map<String, Long> before,
    Map<String, Long> after,
    List<String> conflicts,
    Map<String, String> details) {

  public MaintenanceReport {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    before = Collections.unmodifiableMap(new LinkedHashMap<>(before));
    after = Collections.unmodifiableMap(new LinkedHashMap<>(after));
    conflicts = List.copyOf(conflicts);
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
  }

  /** Whether the action committed a new snapshot. */
  public boolean committed() {
    return snapshotAfter != null;
  }
}
