package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.workload.SourceTransaction;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * How a scenario cuts its workload: a baseline written and reconciled before any fault, then one
 * segment per planned fault, written while that fault is armed, fires and recovers. Explorers use
 * the same cuts to place a fault's position inside the writes that can reach it.
 */
@API(status = EXPERIMENTAL)
public final class WorkloadPhases {

  private WorkloadPhases() {}

  /** How many leading transactions form the baseline of a scenario with faults or exercises. */
  public static int baselineCount(int transactions) {
    return transactions / 2;
  }

  /**
   * Cuts {@code rest} into {@code parts} consecutive segments of about equal change counts; each
   * segment holds at least one transaction while there are enough of them, and the last ones are
   * empty otherwise.
   */
  public static List<List<SourceTransaction>> segments(List<SourceTransaction> rest, int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException(
          "A workload is cut into at least one segment, not " + parts);
    }
    long total = rest.stream().mapToLong(t -> t.changes().size()).sum();
    List<List<SourceTransaction>> segments = new ArrayList<>();
    int from = 0;
    long written = 0;
    for (int part = 1; part <= parts; part++) {
      int to = from;
      if (part == parts) {
        to = rest.size();
      } else {
        long target = total * part / parts;
        // Take one transaction while any is left, then more up to the target while each later
        // segment can still have one.
        int latest = rest.size() - (parts - part);
        while (to < rest.size() && (to == from || (to < latest && written < target))) {
          written += rest.get(to).changes().size();
          to++;
        }
      }
      segments.add(List.copyOf(rest.subList(from, to)));
      from = to;
    }
    return segments;
  }
}
