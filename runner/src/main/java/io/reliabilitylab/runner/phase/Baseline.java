package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.WaitTimedOutException;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.workload.oracle.Expectation;
import io.reliabilitylab.workload.oracle.Oracle;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * Writes the baseline workload into the streaming pipeline — all of it for a scenario without
 * faults or exercises. Before faults or exercises the baseline must reconcile clean, or a later
 * failure proves nothing: it awaits catch-up, observes the pipeline's evidence, and runs the
 * checks, recorded as {@code baseline:<check>}. A job that restarted before any fault, or a
 * baseline that did not reconcile clean, aborts the scenario.
 */
@API(status = INTERNAL)
public final class Baseline implements Phase {

  private final CatchUpPhase catchUp = new CatchUpPhase();

  @Override
  public String name() {
    return "baseline";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    if (scenario.snapshotPhase()) {
      // Preloaded before the job started, and read as its snapshot.
      return Outcome.proceed();
    }
    long restarts = scenario.running().job().restartCount();
    if (restarts != 0) {
      return Outcome.aborted("the job restarted " + restarts + " times before any fault");
    }
    Instant writeAt = scenario.clock().instant();
    scenario.source().writer(WriterSettings.of(scenario.table().name())).write(scenario.baseline());
    scenario.timing("workload", writeAt);
    if (!scenario.phased()) {
      return Outcome.proceed();
    }
    Expectation baseline = Oracle.expect(scenario.workload().prefix(scenario.baselineCount()));
    CatchUp.Point point;
    try {
      point = catchUp.await(scenario, baseline, false);
    } catch (WaitTimedOutException e) {
      return Outcome.timedOut(scenario, name(), e.getMessage(), catchUp.deadline(scenario.plan()));
    }
    RunEvidence.Observation evidence = EvidenceCollection.atBaseline(scenario);
    Reconcile.Result result = Reconcile.reconcile(scenario, point, baseline, evidence, "baseline:");
    if (!result.clean()) {
      return Outcome.aborted(
          "the baseline did not reconcile clean, so nothing was injected"
              + (result.sourceProblem() == null ? "" : ": " + result.sourceProblem()));
    }
    return Outcome.proceed();
  }
}
