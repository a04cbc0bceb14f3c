package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SuiteConsoleTest {

  private static final Instant START = Instant.parse("2026-12-03T10:00:00Z");
  private static final EnvironmentInfo ENVIRONMENT = EnvironmentInfo.capture("embedded", false);

  private final StringWriter output = new StringWriter();
  private final AtomicLong nanos = new AtomicLong();

  private SuiteConsole console(boolean detailed, boolean terminal, int scenarios) {
    SuiteConsole console =
        new SuiteConsole(new PrintWriter(output), detailed, terminal, nanos::get, false);
    console.scenarios(scenarios);
    return console;
  }

  @Test
  void aSuiteOfSeveralPrintsOneLinePerPassingScenarioWithItsFaultAndRecovery() {
    SuiteConsole console = console(false, false, 2);
    run(console, "baseline", passing("baseline", null));
    run(console, "task-failure", passing("task-failure", fault()));

    assertThat(output.toString().lines())
        .hasSize(3)
        .anySatisfy(line -> assertThat(line).startsWith("Running 2 direct scenarios"))
        .anySatisfy(line -> assertThat(line).startsWith("[1/2] baseline").contains("PASSED"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("[2/2] task-failure")
                    .contains("PASSED", "task-failure fired (at-checkpoint:3)")
                    .contains("recovered in 812 ms", "4.0 s"));
    assertThat(output.toString()).doesNotContain("snapshot-diff", "Record:");
  }

  @Test
  void aScenarioThatDidNotGoAsExpectedShowsItsFailedChecksAndRecord() {
    SuiteConsole console = console(false, false, 2);
    RunRecord failed =
        record("task-failure", null)
            .fault(fault())
            .check(CheckResult.passed("no-duplicate-keys", "no key twice", Evidence.NONE))
            .check(CheckResult.failed("snapshot-diff", "3 rows missing", Evidence.NONE))
            .build();
    run(console, "task-failure", failed);

    assertThat(output.toString())
        .contains("FAILED", "snapshot-diff", "3 rows missing", "record " + failed.runId() + ".json")
        .doesNotContain("no key twice");
  }

  @Test
  void aKnownHazardDetectedCountsAsExpected() {
    SuiteConsole console = console(false, false, 2);
    RunRecord detected =
        record("savepoint-restore", "FLINK-00000")
            .fault(fault())
            .check(CheckResult.failed("snapshot-diff", "duplicates", Evidence.NONE))
            .build();
    run(console, "savepoint-restore", detected);

    assertThat(output.toString()).contains("KNOWN HAZARD DETECTED").doesNotContain("duplicates");
  }

  @Test
  void oneScenarioAloneOrVerboseShowsEveryCheck() {
    SuiteConsole alone = console(false, false, 1);
    run(alone, "baseline", passing("baseline", null));
    assertThat(output.toString()).contains("snapshot-diff", "Record: ");

    output.getBuffer().setLength(0);
    SuiteConsole verbose = console(true, false, 3);
    run(verbose, "baseline", passing("baseline", null));
    assertThat(output.toString()).contains("snapshot-diff", "Record: ");
  }

  @Test
  void aLongWaitGetsAPlainLineOffATerminalOnlyAfterTheQuietWait() {
    SuiteConsole console = console(false, false, 2);
    console.scenarioStarting(ScenarioPlan.of("direct", "baseline", 42, 100));
    console.phaseStarting(ScenarioPlan.of("direct", "baseline", 42, 100), "catch-up");
    nanos.addAndGet(Duration.ofSeconds(29).toNanos());
    console.tick();
    assertThat(output.toString()).doesNotContain("still in");

    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    console.tick();
    console.tick();
    assertThat(output.toString().lines().filter(line -> line.contains("still in")))
        .containsExactly("[1/2] baseline: still in catch-up after 30 s");
  }

  @Test
  void aTerminalGetsAStatusLineThatIsClearedBeforeTheScenariosLine() {
    SuiteConsole console = console(false, true, 2);
    ScenarioPlan plan = ScenarioPlan.of("direct", "baseline", 42, 100);
    console.scenarioStarting(plan);
    console.phaseStarting(plan, "start");
    nanos.addAndGet(Duration.ofSeconds(5).toNanos());
    console.tick();
    assertThat(output.toString()).endsWith("\r[1/2] baseline: start 5 s");

    console.scenarioFinished(passing("baseline", null));
    String afterStatus = output.toString().substring(output.toString().lastIndexOf('\r') + 1);
    assertThat(afterStatus).startsWith("[1/2] baseline").contains("PASSED");
  }

  private void run(SuiteConsole console, String scenario, RunRecord record) {
    ScenarioPlan plan = ScenarioPlan.of("direct", scenario, 42, 100);
    console.scenarioStarting(plan);
    console.phaseStarting(plan, "start");
    nanos.addAndGet(Duration.ofSeconds(4).toNanos());
    console.scenarioFinished(record);
  }

  private static RunRecord passing(String scenario, FaultRecord fault) {
    RunRecord.Builder builder =
        record(scenario, null)
            .check(CheckResult.passed("snapshot-diff", "no difference", Evidence.NONE));
    if (fault != null) {
      builder.fault(fault);
    }
    return builder.build();
  }

  private static RunRecord.Builder record(String scenario, String knownHazard) {
    ScenarioInfo info = ScenarioInfo.of("direct", scenario, 42, 100, 20);
    if (knownHazard != null) {
      info =
          new ScenarioInfo(
              "direct", scenario, null, 42, 100, 20, null, null, null, null, knownHazard);
    }
    return RunRecord.builder("20261203T100000Z-0000aa0" + Math.abs(scenario.hashCode() % 10), START)
        .finishedAt(START.plusSeconds(4))
        .command(List.of("reliability-lab", "run"))
        .environment(ENVIRONMENT)
        .scenario(info)
        .claimBoundary("Shows the scenario; not more.");
  }

  private static FaultRecord fault() {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-1-task-failure",
            "task-failure",
            new FaultPosition.AtCheckpoint(3),
            Map.of());
    Instant fired = START.plusSeconds(1);
    FaultEvidence evidence =
        new FaultEvidence(
            spec.id(),
            "task-failure",
            FaultStatus.FIRED,
            fired,
            fired,
            "task-failure injected at checkpoint 3",
            Map.of("checkpoint_id", "3"),
            List.of("the job's exception history names " + spec.id()),
            "");
    RecoveryEvidence recovery =
        new RecoveryEvidence(
            true,
            fired,
            fired.plusMillis(100),
            5L,
            fired.plusMillis(200),
            1L,
            fired.plusMillis(812),
            1,
            Map.of());
    return FaultRecord.of(spec, evidence, recovery);
  }
}
