package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.Diagnostics;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a phase decided: the scenario goes on, or it stops — failed, because the pipeline did not do
 * what it must in time (exit code 1), or aborted by an error of the environment or of the lab's own
 * reference (exit code 2 unless a check failed). The lifecycle records a stop; a phase never reads
 * the record to find out whether to go on.
 */
@API(status = INTERNAL)
public sealed interface Outcome {

  /** The scenario goes on with the next phase. */
  static Outcome proceed() {
    return Proceed.INSTANCE;
  }

  /** The scenario stops on an error, recorded as the run's error. */
  static Outcome aborted(String reason) {
    return new Aborted(reason);
  }

  /** The scenario stops failed: a lifecycle check failed, with a diagnostic dump. */
  static Outcome failed(CheckResult check, Diagnostics diagnostics) {
    return new Failed(check, diagnostics);
  }

  /**
   * A wait of {@code phase} passed its deadline: the pipeline failed to do what it must in time, so
   * the run fails with a failed check named after the phase and a diagnostic dump.
   */
  static Failed timedOut(Scenario scenario, String phase, String message, Duration deadline) {
    return new Failed(
        CheckResult.failed(
            phase,
            message,
            Evidence.builder().fact("deadline_s", Long.toString(deadline.toSeconds())).build()),
        DiagnosticDump.of(scenario, message));
  }

  /** Whether the next phase runs. */
  boolean proceeds();

  /** One line: why the scenario stopped, empty when it goes on. */
  String reason();

  /** Adds the stop to the record: nothing for {@link Proceed}. */
  void recordIn(RunRecord.Builder record);

  /** Go on. */
  record Proceed() implements Outcome {
    private static final Proceed INSTANCE = new Proceed();

    @Override
    public boolean proceeds() {
      return true;
    }

    @Override
    public String reason() {
      return "";
    }

    @Override
    public void recordIn(RunRecord.Builder record) {}
  }

  /** Stop with verdict failed: {@code check} failed, {@code diagnostics} show where things were. */
  record Failed(CheckResult check, Diagnostics diagnostics) implements Outcome {
    public Failed {
      Objects.requireNonNull(check, "check");
      Objects.requireNonNull(diagnostics, "diagnostics");
    }

    @Override
    public boolean proceeds() {
      return false;
    }

    @Override
    public String reason() {
      return check.check() + ": " + check.summary();
    }

    @Override
    public void recordIn(RunRecord.Builder record) {
      record.check(check).diagnostics(diagnostics);
    }
  }

  /** Stop on an error: the run's verdict is inconclusive with exit code 2 unless a check failed. */
  record Aborted(String reason) implements Outcome {
    public Aborted {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public boolean proceeds() {
      return false;
    }

    @Override
    public void recordIn(RunRecord.Builder record) {
      record.error(reason);
    }
  }
}
