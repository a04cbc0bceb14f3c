package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.WaitTimedOutException;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.oracle.Expectation;
import java.time.Duration;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * Awaits, by measurement, the sink holding the whole workload (every key's last envelope, see
 * {@link CatchUp}), and records the source position it reached. A sink that does not catch up in
 * time fails the run with a failed {@code catch-up} check — except in a scenario reproducing a
 * known hazard that loses data, whose lost events never arrive: the checks then judge what the sink
 * holds, so that they name what is missing.
 */
@API(status = INTERNAL)
public final class CatchUpPhase implements Phase {

  /** The catch-up deadline of a scenario expected to diverge (its lost events never arrive). */
  private static final Duration HAZARD_CATCH_UP = Duration.ofSeconds(20);

  /**
   * How long such a scenario's sink must append nothing before it is judged, whether or not it
   * shows the workload's end (the lost events may be the last ones).
   */
  private static final Duration HAZARD_QUIET = Duration.ofSeconds(5);

  @Override
  public String name() {
    return "catch-up";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    Instant catchUpAt = scenario.clock().instant();
    CatchUp.Point point;
    try {
      point = await(scenario, scenario.expected(), scenario.plan().knownHazard() != null);
    } catch (WaitTimedOutException e) {
      Outcome.Failed failed =
          Outcome.timedOut(scenario, name(), e.getMessage(), deadline(scenario.plan()));
      CatchUp.Point latest =
          scenario.plan().knownHazard() == null
              ? null
              : CatchUp.latest(scenario.running().tables(), scenario.clock());
      if (latest == null) {
        return failed;
      }
      failed.recordIn(scenario.record());
      point = latest;
    }
    scenario.record().timing("catch_up", Duration.between(catchUpAt, point.reachedAt()));
    // The workload is complete and the sink holds it: the sink reached the source's
    // position as it is now.
    scenario.record().sourcePosition(scenario.source().position().orElse(null));
    scenario.caughtUp(point);
    return Outcome.proceed();
  }

  /** A scenario expected to lose data waits less: the lost event never arrives. */
  @Override
  public Duration deadline(ScenarioPlan plan) {
    return plan.knownHazard() != null && plan.catchUpTimeout().compareTo(HAZARD_CATCH_UP) > 0
        ? HAZARD_CATCH_UP
        : plan.catchUpTimeout();
  }

  /**
   * Waits until the sink holds {@code expected}, within the scenario's deadline: every key's last
   * envelope, or, once it shows the workload's end, until nothing more arrives; when {@code
   * lossExpected}, briefly and whether or not it shows the end (the lost ones never arrive, may be
   * the last ones written, and the checks are to name them).
   *
   * @throws WaitTimedOutException at the deadline, saying which table lagged
   */
  CatchUp.Point await(Scenario scenario, Expectation expected, boolean lossExpected)
      throws Exception {
    TableAccess tables = scenario.running().tables();
    Duration deadline = deadline(scenario.plan());
    return lossExpected
        ? CatchUp.awaitExpectingLoss(
            tables, expected.events(), deadline, HAZARD_QUIET, scenario.clock())
        : CatchUp.await(tables, expected, deadline, scenario.clock());
  }
}
