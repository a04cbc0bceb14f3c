package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.Workloads;
import java.util.List;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * One case an explorer runs: a sequence of abstract changes (interpreted into a valid workload, so
 * that any shorter sequence is one too) and a schedule of one to three faults.
 *
 * @param intents the abstract changes, in order
 * @param schedule the faults, injected one after another; a snapshot-phase fault comes first
 */
@API(status = EXPERIMENTAL)
public record ExploreCase(List<Workloads.Intent> intents, List<ScheduledFault> schedule) {

  public ExploreCase {
    intents = List.copyOf(intents);
    schedule = List.copyOf(schedule);
  }

  /** The workload the intents stand for; the same intents always give the same workload. */
  public Workload workload() {
    return Workloads.interpret(intents);
  }

  /** The schedule as text, e.g. {@code task-exception@after-event:3, checkpoint-failure@...}. */
  public String scheduleText() {
    return schedule.stream().map(ScheduledFault::text).collect(Collectors.joining(", "));
  }

  /** A one-line description: changes, transactions and the schedule. */
  public String describe() {
    Workload workload = workload();
    return workload.changeCount()
        + " changes in "
        + workload.transactions().size()
        + " transactions; faults: "
        + scheduleText();
  }
}
