package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.workload.Workload;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one scenario through its phases, in order, until one stops it: {@link Prepare}, {@link
 * Preload}, {@link Start}, {@link Baseline}, {@link FaultPhase}, {@link ExercisePhase}, {@link
 * CatchUpPhase}, {@link SourceResumePhase}, {@link Reconcile}; then, whatever happened, {@link
 * RecordRun}. The pipeline is stopped once the phases are done, and faults armed at submission are
 * released.
 *
 * <p>A pipeline that misbehaves never makes it throw: a wait that times out becomes a failed check
 * named after its phase with a diagnostic dump, an error becomes the run's error.
 */
@API(status = INTERNAL)
public final class Lifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(Lifecycle.class);

  private final Lab lab;
  private final List<Phase> phases;
  private final PhaseListener listener;

  /** The lab's lifecycle. */
  public Lifecycle(Lab lab) {
    this(lab, PhaseListener.NONE);
  }

  /** The lab's lifecycle, telling {@code listener} as each phase starts. */
  public Lifecycle(Lab lab, PhaseListener listener) {
    this(
        lab,
        List.of(
            new Prepare(),
            new Preload(),
            new Start(),
            new Baseline(),
            new FaultPhase(),
            new ExercisePhase(),
            new CatchUpPhase(),
            new SourceResumePhase(),
            new Reconcile()),
        listener);
  }

  Lifecycle(Lab lab, List<Phase> phases, PhaseListener listener) {
    this.lab = lab;
    this.phases = List.copyOf(phases);
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Runs {@code plan} on {@code workload} and writes its record; returns the record. */
  public RunRecord run(ScenarioPlan plan, Workload workload) throws Exception {
    Scenario scenario = Scenario.begin(lab, plan, workload);
    try {
      runPhases(scenario);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      scenario.record().error("interrupted");
    } catch (Exception e) {
      LOG.debug("Scenario {} stopped", plan.scenario(), e);
      scenario.record().error(Failures.oneLine(e));
    }
    return RecordRun.write(scenario);
  }

  /**
   * Runs the phases until one stops the scenario, records why, then stops the pipeline. The outcome
   * is recorded before the pipeline is stopped, so that a failure to stop never hides why the
   * scenario stopped: it is the run's error only when every phase proceeded.
   */
  private void runPhases(Scenario scenario) throws Exception {
    Outcome outcome = Outcome.proceed();
    try {
      for (Phase phase : phases) {
        tell(scenario.plan(), phase);
        outcome = runPhase(phase, scenario);
        if (!outcome.proceeds()) {
          LOG.debug("Scenario {} stopped: {}", scenario.plan().scenario(), outcome.reason());
          break;
        }
      }
    } catch (Exception e) {
      try {
        scenario.release();
      } catch (Exception stopping) {
        e.addSuppressed(stopping);
      }
      throw e;
    }
    outcome.recordIn(scenario.record());
    try {
      scenario.release();
    } catch (Exception stopping) {
      if (outcome.proceeds()) {
        throw stopping;
      }
      LOG.warn(
          "Scenario {} stopped ({}); stopping its pipeline then failed too: {}",
          scenario.plan().scenario(),
          outcome.reason(),
          Failures.oneLine(stopping));
    }
  }

  private void tell(ScenarioPlan plan, Phase phase) {
    try {
      listener.phaseStarting(plan, phase.name());
    } catch (RuntimeException e) {
      LOG.debug("The phase listener failed on {} of {}", phase.name(), plan.scenario(), e);
    }
  }

  /**
   * Runs one phase. A {@link TimeoutException} out of it is a wait that passed its deadline: the
   * pipeline failed to do what it must in time. Any other exception stops the scenario as an error,
   * with a diagnostic dump while the pipeline still runs.
   */
  private static Outcome runPhase(Phase phase, Scenario scenario) throws Exception {
    try {
      return phase.run(scenario);
    } catch (TimeoutException e) {
      String message = Failures.oneLine(e);
      if (scenario.runningOrNull() == null) {
        // The pipeline did not start streaming in time: its own deadline, not one of the lab's.
        return Outcome.failed(
            CheckResult.failed(phase.name(), message, Evidence.NONE),
            DiagnosticDump.of(scenario, message));
      }
      return Outcome.timedOut(scenario, phase.name(), message, phase.deadline(scenario.plan()));
    } catch (Exception e) {
      if (scenario.runningOrNull() != null) {
        scenario.record().diagnostics(DiagnosticDump.of(scenario, Failures.oneLine(e)));
      }
      throw e;
    }
  }
}
