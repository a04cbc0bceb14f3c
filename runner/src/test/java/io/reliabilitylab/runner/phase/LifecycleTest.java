package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.Diagnostics;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the lifecycle acts on its phases' outcomes, with stand-in phases: the real phases run in
 * {@code ScenarioRunnerIT} and the pipelines' ITs.
 */
class LifecycleTest {

  @TempDir Path out;

  private final List<String> ran = new ArrayList<>();

  @Test
  void anAbortedPhaseStopsTheScenarioAndItsReasonIsTheRunsError() throws Exception {
    RunRecord record =
        run(
            step("one", scenario -> Outcome.proceed()),
            step("two", scenario -> Outcome.aborted("the source went away")),
            step("three", scenario -> Outcome.proceed()));

    assertThat(ran).containsExactly("one", "two");
    assertThat(record.summary().error()).isEqualTo("the source went away");
    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
    assertThat(RunRecordReader.readDirectory(out)).singleElement().isEqualTo(record);
  }

  @Test
  void aFailedPhaseRecordsItsCheckAndDumpAndFailsTheRun() throws Exception {
    Diagnostics dump = Diagnostics.builder("lagging", Instant.now()).build();
    RunRecord record =
        run(
            step(
                "catch-up",
                scenario ->
                    Outcome.failed(CheckResult.failed("catch-up", "lagging", Evidence.NONE), dump)),
            step("reconcile", scenario -> Outcome.proceed()));

    assertThat(ran).containsExactly("catch-up");
    assertThat(record.checks())
        .extracting(CheckResult::check, CheckResult::verdict)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("catch-up", Verdict.FAILED));
    assertThat(record.diagnostics()).isEqualTo(dump);
    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
    assertThat(record.summary().error()).isNull();
  }

  @Test
  void aTimeoutBeforeThePipelineRunsFailsACheckNamedAfterThePhase() throws Exception {
    RunRecord record =
        run(
            step(
                "start",
                scenario -> {
                  throw new TimeoutException("the job did not start within 2 s");
                }));

    assertThat(record.checks())
        .singleElement()
        .satisfies(
            check -> {
              assertThat(check.check()).isEqualTo("start");
              assertThat(check.verdict()).isEqualTo(Verdict.FAILED);
              assertThat(check.summary()).isEqualTo("the job did not start within 2 s");
              assertThat(check.evidence()).isEqualTo(Evidence.NONE);
            });
    assertThat(record.diagnostics()).isNotNull();
    assertThat(record.diagnostics().jobState()).isNull();
    assertThat(record.diagnostics().details()).containsKey("source_position");
    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
  }

  @Test
  void aTimeoutWhileThePipelineRunsNamesThePhaseAndItsDeadlineAndStopsThePipeline()
      throws Exception {
    StandInPipeline pipeline = new StandInPipeline();
    RunRecord record =
        run(
            step("start", scenario -> started(scenario, pipeline)),
            step(
                "faults",
                scenario -> {
                  throw new TimeoutException("no checkpoint after the fault");
                }));

    assertThat(record.checks())
        .singleElement()
        .satisfies(
            check -> {
              assertThat(check.check()).isEqualTo("faults");
              assertThat(check.evidence().facts()).containsEntry("deadline_s", "2");
            });
    assertThat(record.diagnostics().jobState()).isEqualTo(JobState.RUNNING);
    assertThat(pipeline.closed).isTrue();
  }

  @Test
  void anErrorWhileThePipelineRunsIsTheRunsErrorWithADumpAndThePipelineIsStopped()
      throws Exception {
    StandInPipeline pipeline = new StandInPipeline();
    RunRecord record =
        run(
            step("start", scenario -> started(scenario, pipeline)),
            step(
                "exercises",
                scenario -> {
                  throw new IllegalStateException("no operator fault point");
                }),
            step("catch-up", scenario -> Outcome.proceed()));

    assertThat(ran).containsExactly("start", "exercises");
    assertThat(record.summary().error()).isEqualTo("no operator fault point");
    assertThat(record.diagnostics()).isNotNull();
    assertThat(record.diagnostics().details()).containsEntry("job_id", "stand-in-job");
    assertThat(pipeline.closed).isTrue();
  }

  @Test
  void aPipelineThatFailsToStopNeverHidesWhyTheScenarioStopped() throws Exception {
    StandInPipeline pipeline = new StandInPipeline();
    pipeline.failsToClose = new IllegalStateException("the cluster did not stop");
    RunRecord record =
        run(
            step("start", scenario -> started(scenario, pipeline)),
            step(
                "catch-up",
                scenario -> {
                  throw new TimeoutException("the sink did not catch up");
                }));

    assertThat(pipeline.closed).isTrue();
    assertThat(record.checks())
        .singleElement()
        .satisfies(c -> assertThat(c.check()).isEqualTo("catch-up"));
    assertThat(record.summary().error()).isNull();
    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
  }

  @Test
  void aPipelineThatFailsToStopAfterACleanRunIsTheRunsError() throws Exception {
    StandInPipeline pipeline = new StandInPipeline();
    pipeline.failsToClose = new IllegalStateException("the cluster did not stop");
    RunRecord record = run(step("start", scenario -> started(scenario, pipeline)));

    assertThat(record.summary().error()).isEqualTo("the cluster did not stop");
  }

  @Test
  void aScenarioWhosePhasesAllProceedIsRecordedWithTheirEvidence() throws Exception {
    RunRecord record =
        run(
            step(
                "reconcile",
                scenario -> {
                  scenario
                      .record()
                      .check(CheckResult.passed("snapshot-diff", "no difference", Evidence.NONE));
                  return Outcome.proceed();
                }));

    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.PASSED);
    assertThat(record.scenario().name()).isEqualTo("baseline");
  }

  private static Outcome started(Scenario scenario, StandInPipeline pipeline) {
    scenario.started(pipeline.running());
    return Outcome.proceed();
  }

  @Test
  void theListenerHearsEachPhaseThatRunsAndOneThatThrowsStopsNothing() throws Exception {
    List<String> heard = new ArrayList<>();
    PhaseListener listener =
        (plan, phase) -> {
          heard.add(plan.scenario() + "/" + phase);
          throw new IllegalStateException("a listener that fails");
        };
    RunRecord record =
        run(
            listener,
            step("start", scenario -> Outcome.proceed()),
            step("catch-up", scenario -> Outcome.aborted("the source is gone")),
            step("reconcile", scenario -> Outcome.proceed()));

    assertThat(heard).containsExactly("baseline/start", "baseline/catch-up");
    assertThat(ran).containsExactly("start", "catch-up");
    assertThat(record.summary().error()).isEqualTo("the source is gone");
  }

  private RunRecord run(Phase... phases) throws Exception {
    return run(PhaseListener.NONE, phases);
  }

  private RunRecord run(PhaseListener listener, Phase... phases) throws Exception {
    Lab lab =
        new Lab(
            new StubSource(),
            out,
            List.of(),
            List.of(),
            List.of(),
            List.of("reliability-lab", "run"),
            Clock.systemUTC(),
            null);
    ScenarioPlan plan =
        new ScenarioPlan(
            "stand-in",
            "baseline",
            1,
            10,
            Map.of(),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            List.of());
    return new Lifecycle(lab, List.of(phases), listener)
        .run(plan, WorkloadGenerator.generate(WorkloadConfig.of(plan.events(), plan.seed())));
  }

  @FunctionalInterface
  private interface Body {
    Outcome run(Scenario scenario) throws Exception;
  }

  private Phase step(String name, Body body) {
    return new Phase() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Outcome run(Scenario scenario) throws Exception {
        ran.add(name);
        return body.run(scenario);
      }
    };
  }
}
