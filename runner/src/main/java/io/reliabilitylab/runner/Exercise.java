package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * Something a scenario does to a streaming pipeline between its clean baseline and its final
 * reconciliation that is not a fault: checkpoint pressure, table maintenance. An exercise writes
 * the rest of the workload its own way and records what it measured; it proves nothing by itself —
 * the final reconciliation does.
 */
@API(status = EXPERIMENTAL)
public interface Exercise {

  /** The name a plan and {@code --scenarios} use, e.g. {@code pressure}. */
  String name();

  /** The pipeline options the exercise's scenario runs with, on top of the suite's; none here. */
  default Map<String, String> options() {
    return Map.of();
  }

  /**
   * How many of the workload's transactions the exercise's writer commits in one database
   * transaction; 1 (the default) keeps the workload's boundaries. Above 1 the database orders the
   * changes of such a commit as the writer sends them, which the oracle does not know, so commits
   * are not judged as a prefix of the source's changes.
   */
  default int transactionsPerCommit() {
    return 1;
  }

  /**
   * Runs the exercise; returns once the rest of the workload is written. Measurements go into the
   * record as an exercise section, problems as failed checks named {@code <name>:<what>}.
   */
  void run(ExerciseContext context) throws Exception;
}
