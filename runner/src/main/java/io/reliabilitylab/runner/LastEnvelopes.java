package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.RowKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The last expected envelope of every key, ticked off as the changelog shows them. A pipeline keeps
 * each key's changes in order but not the order between keys: a Kafka source reads its partitions
 * independently, and after a broker restart or a failover one partition's backlog can be committed
 * after the workload's last event arrived through another. So a sink holds the workload only once
 * it holds every key's last envelope, not merely the last one written.
 *
 * <p>An insert or update counts as shown by any row carrying its event id (a snapshot read of that
 * version stands for it, as in the changelog-completeness check); a delete only by a delete row,
 * since it carries the deleted image's event id.
 */
@API(status = INTERNAL)
public final class LastEnvelopes {

  private static final int SAMPLE = 5;

  private final int keys;
  private final Set<Long> writes = new HashSet<>();
  private final Set<Long> deletes = new HashSet<>();
  private final @Nullable Long lastWritten;
  private final Set<Long> trailingDeletes = new HashSet<>();
  private boolean lastWrittenShown;

  private LastEnvelopes(List<ChangeEvent> expected) {
    Map<RowKey, ChangeEvent> last = new HashMap<>();
    for (ChangeEvent event : expected) {
      last.put(event.key(), event);
    }
    keys = last.size();
    for (ChangeEvent event : last.values()) {
      (event.op() == ChangeOp.DELETE ? deletes : writes).add(event.eventId());
    }
    Long written = null;
    for (ChangeEvent event : expected) {
      if (event.op() == ChangeOp.DELETE) {
        trailingDeletes.add(event.eventId());
      } else {
        written = written == null ? event.eventId() : Math.max(written, event.eventId());
        trailingDeletes.clear();
      }
    }
    lastWritten = written;
  }

  /** The last envelope of each key in {@code expected} (in source-position order). */
  public static LastEnvelopes of(List<ChangeEvent> expected) {
    return new LastEnvelopes(expected);
  }

  /** Ticks off the envelope {@code shown} stands for, if it is a key's last one. */
  public void seen(ChangeEvent shown) {
    if (shown.op() == ChangeOp.DELETE) {
      deletes.remove(shown.eventId());
      trailingDeletes.remove(shown.eventId());
    } else {
      writes.remove(shown.eventId());
      lastWrittenShown |= lastWritten != null && shown.eventId() == lastWritten;
    }
  }

  /**
   * Whether the workload's end was shown: its last written event and the deletes after it. A sink
   * that shows its end but not every key's last envelope lost them, or has them still in flight.
   */
  public boolean endShown() {
    return (lastWritten == null || lastWrittenShown) && trailingDeletes.isEmpty();
  }

  /** What the workload's end still lacks, e.g. {@code event 42} or {@code 2 trailing deletes}. */
  public String endMissing() {
    List<String> missing = new ArrayList<>();
    if (lastWritten != null && !lastWrittenShown) {
      missing.add("event " + lastWritten);
    }
    if (!trailingDeletes.isEmpty()) {
      missing.add("the " + trailingDeletes.size() + " deletes after it");
    }
    return String.join(" and ", missing);
  }

  /** Whether every key's last envelope was shown. */
  public boolean complete() {
    return writes.isEmpty() && deletes.isEmpty();
  }

  /** How many keys' last envelopes were not shown yet. */
  public int missing() {
    return writes.size() + deletes.size();
  }

  /** The keys expected. */
  public int keys() {
    return keys;
  }

  /** A few of the envelopes not shown yet, e.g. {@code [u:42, d:7]}, for a timeout's message. */
  public List<String> sample() {
    return Stream.concat(
            writes.stream().sorted().map(id -> "c/u:" + id),
            deletes.stream().sorted().map(id -> ChangeOp.DELETE.code() + ":" + id))
        .limit(SAMPLE)
        .toList();
  }
}
