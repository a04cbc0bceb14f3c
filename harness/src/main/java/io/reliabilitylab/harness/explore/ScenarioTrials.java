package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.Summary;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.workload.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Runs explored cases through the lab's scenario lifecycle: a fresh source table and fresh sink
 * tables per case, the baseline reconciled, each fault injected while its segment of the workload
 * is written, proven and recovered, then every check. One source database and one runner serve
 * every case.
 */
@API(status = EXPERIMENTAL)
public final class ScenarioTrials implements TrialRunner {

  private static final String BASELINE_PREFIX = "baseline:";

  /** The sequence part of a fault id, {@code srl-fault-<n>-}. */
  private static final Pattern FAULT_SEQUENCE = Pattern.compile("srl-fault-\\d+-");

  private final ScenarioRunner runner;
  private final ExploreSpace space;
  private final String pipeline;
  private final Map<String, String> options;
  private final Duration catchUpTimeout;

  public ScenarioTrials(
      ScenarioRunner runner,
      ExploreSpace space,
      String pipeline,
      Map<String, String> options,
      Duration catchUpTimeout) {
    this.runner = runner;
    this.space = space;
    this.pipeline = pipeline;
    this.options = Map.copyOf(options);
    this.catchUpTimeout = catchUpTimeout;
  }

  @Override
  public Trial run(ExploreCase exploreCase, int number, Trial.Phase phase) throws Exception {
    Workload workload = exploreCase.workload();
    List<PlannedFault> planned = space.plannedFaults(exploreCase);
    ScenarioPlan plan =
        new ScenarioPlan(
            pipeline,
            "explore:" + phase.name().toLowerCase(Locale.ROOT) + "-" + number,
            workload.config().seed(),
            (int) workload.changeCount(),
            options,
            Duration.ofSeconds(60),
            catchUpTimeout,
            planned,
            null,
            null,
            List.of());
    Instant started = Instant.now();
    RunRecord record = runner.run(plan, workload);
    Summary summary = record.summary();
    if (summary.exitCode() == ExitCode.USAGE_OR_ENVIRONMENT
        && summary.failedChecks().isEmpty()
        && summary.notProvenFaults().isEmpty()) {
      // nothing was judged: the lab or its environment broke, which no shrinking explains
      throw new IllegalStateException(
          "the lab could not run case " + number + " (" + summary.error() + ")");
    }
    return new Trial(
        number,
        phase,
        exploreCase,
        planned.stream()
            .map(fault -> fault.fault() + "@" + positionText(fault.position()))
            .toList(),
        workload.digest(),
        record.summary().exitCode(),
        failures(record.summary()),
        record.checks().stream().filter(check -> check.verdict() == Verdict.FAILED).toList(),
        record.runId(),
        Duration.between(started, Instant.now()));
  }

  private static String positionText(FaultPosition position) {
    return position == null ? "default" : position.text();
  }

  /**
   * What kept the run from passing, named so that two runs of one case compare equal and a shrunk
   * case compares with its original: checks by name (a baseline's without its prefix), faults by
   * name without their sequence number ({@code srl-fault-2-broker-restart} is {@code
   * broker-restart} once an earlier fault is shrunk away), reasons and numbers left out.
   */
  static List<String> failures(Summary summary) {
    List<String> failures = new ArrayList<>();
    for (String check : summary.failedChecks()) {
      String name =
          check.startsWith(BASELINE_PREFIX) ? check.substring(BASELINE_PREFIX.length()) : check;
      add(failures, withoutFaultSequence(name));
    }
    summary.inconclusiveChecks().forEach(check -> add(failures, "inconclusive:" + check));
    summary
        .notProvenFaults()
        .forEach(fault -> add(failures, "not-proven:" + withoutFaultSequence(fault)));
    // a skipped fault reads "<id> (<fault>): <reason>": the fault's name is what compares
    for (String fault : summary.skippedFaults()) {
      int reason = fault.indexOf(": ");
      String head = reason < 0 ? fault : fault.substring(0, reason);
      int name = head.indexOf(" (");
      add(failures, "skipped:" + withoutFaultSequence(name < 0 ? head : head.substring(0, name)));
    }
    if (summary.error() != null && failures.isEmpty()) {
      failures.add("error");
    }
    return failures;
  }

  private static String withoutFaultSequence(String text) {
    return FAULT_SEQUENCE.matcher(text).replaceAll("");
  }

  private static void add(List<String> failures, String failure) {
    if (!failures.contains(failure)) {
      failures.add(failure);
    }
  }
}
