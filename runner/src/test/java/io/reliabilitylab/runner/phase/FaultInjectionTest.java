package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.testkit.BarePipeline;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner, not each fault, skips a fault whose declared capabilities the pipeline lacks: a
 * plugin fault that forgets to check is never injected, its record says SKIPPED naming what is
 * missing, and the run is inconclusive, never passed. (A built-in fault's own check is proven in
 * faults-core; the real injection path in the pipelines' ITs.)
 */
class FaultInjectionTest {

  @TempDir Path out;

  @Test
  void aFaultThePipelineCannotHostIsSkippedByTheRunnerWithoutBeingInjected() throws Exception {
    ForgetfulFault fault = new ForgetfulFault();
    Scenario scenario = scenario(fault);

    FaultInjection.Armed armed = FaultInjection.arm(scenario, BarePipeline.create(), 0, () -> {});
    scenario.record().fault(FaultInjection.complete(scenario, armed));
    scenario.record().check(CheckResult.passed("snapshot-diff", "no difference", Evidence.NONE));
    RunRecord record = scenario.record().finishedAt(Instant.now()).build();

    assertThat(fault.injections).isZero();
    FaultRecord skipped = record.faults().get(0);
    assertThat(skipped.evidence().status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(skipped.evidence().reason())
        .contains("TaskManagerControl")
        .contains("bare")
        .contains("forgetful");
    assertThat(skipped.recovery()).isNull();
    assertThat(record.summary().verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
    assertThat(record.summary().skippedFaults()).singleElement().asString().contains("forgetful");
  }

  @Test
  void aFaultThePipelineCanHostIsInjected() throws Exception {
    ForgetfulFault fault = new ForgetfulFault(Set.of());
    Scenario scenario = scenario(fault);

    FaultInjection.Armed armed = FaultInjection.arm(scenario, BarePipeline.create(), 0, () -> {});

    assertThat(fault.injections).isOne();
    assertThat(armed.spec().id()).startsWith("srl-fault-1-");
  }

  @Test
  void theWritersReconnectionsJoinTheRecoveryDetails() {
    Instant at = Instant.parse("2026-12-06T21:00:00Z");
    FaultRecord fault =
        FaultRecord.of(
            new io.reliabilitylab.spi.fault.FaultSpec(
                "srl-fault-1-source-crash",
                "source-crash",
                new io.reliabilitylab.spi.fault.FaultPosition.Now(),
                java.util.Map.of()),
            io.reliabilitylab.spi.fault.FaultEvidence.builder(
                    "srl-fault-1-source-crash", "source-crash", at)
                .fired(at)
                .what("killed")
                .proof("a new server pid")
                .build(),
            io.reliabilitylab.spi.fault.RecoveryEvidence.builder(at).detail("own", "kept").build());
    io.reliabilitylab.workload.WriteReport written =
        new io.reliabilitylab.workload.WriteReport(
            2,
            5,
            2,
            java.time.Duration.ofMillis(10),
            new long[] {1, 2},
            List.of(
                new io.reliabilitylab.workload.WriterReconnection(
                    "Writing transaction 7 (1 of 2)", "Connection reset", true)));

    FaultRecord amended = FaultInjection.withWriter(fault, written);

    assertThat(amended.recovery().details())
        .containsEntry("own", "kept")
        .containsEntry("writer_reconnections", "1")
        .hasEntrySatisfying(
            "writer_reconnection_1",
            line ->
                assertThat(line)
                    .startsWith(
                        "Writing transaction 7 (1 of 2) lost the connection (Connection reset)")
                    .contains("had committed them, so they were not written again"));
    assertThat(FaultInjection.withWriter(fault, null)).isSameAs(fault);
  }

  @Test
  void aSnapshotPhasePositionPastThePreloadedRowsIsSkippedSayingWhy() throws Exception {
    // 10 events preload a table of fewer than 50 live rows: snapshot-phase:50 can never fire
    Scenario few = scenario(new ForgetfulFault(Set.of()), new FaultPosition.SnapshotPhase(50));
    assertThat(FaultInjection.unreachable(few, new FaultPosition.SnapshotPhase(50)))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .startsWith("snapshot-phase:50 needs more than 50 rows")
                    .contains("raise --events"));
    assertThat(FaultInjection.unreachable(few, new FaultPosition.SnapshotPhase(0))).isEmpty();
    assertThat(FaultInjection.unreachable(few, new FaultPosition.Now())).isEmpty();

    ForgetfulFault fault = new ForgetfulFault(Set.of());
    Scenario scenario = scenario(fault, new FaultPosition.SnapshotPhase(50));
    FaultInjection.Armed armed = FaultInjection.arm(scenario, BarePipeline.create(), 0, () -> {});
    assertThat(fault.injections).isZero();
    FaultRecord skipped = FaultInjection.complete(scenario, armed);
    assertThat(skipped.evidence().status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(skipped.evidence().reason()).contains("snapshot-phase:50 needs more than 50 rows");
  }

  private Scenario scenario(FaultInjector fault) throws Exception {
    return scenario(fault, null);
  }

  private Scenario scenario(FaultInjector fault, @Nullable FaultPosition position)
      throws Exception {
    Lab lab =
        new Lab(
            new StubSource(),
            out,
            List.of(),
            List.of(),
            List.of(fault),
            List.of(),
            Clock.systemUTC(),
            null);
    ScenarioPlan plan =
        ScenarioPlan.of("bare", "baseline", 1, 10)
            .withFaults(fault.name(), List.of(new PlannedFault(fault.name(), position, Map.of())));
    return Scenario.begin(
        lab, plan, WorkloadGenerator.generate(WorkloadConfig.of(plan.events(), plan.seed())));
  }

  /**
   * A plugin fault that needs a TaskManager to kill but never looks whether the pipeline has one:
   * injected, it would claim to have fired.
   */
  private static final class ForgetfulFault implements FaultInjector {
    private final Set<Class<? extends PipelineCapability>> required;
    int injections;

    ForgetfulFault() {
      this(Set.of(TaskManagerControl.class));
    }

    ForgetfulFault(Set<Class<? extends PipelineCapability>> required) {
      this.required = required;
    }

    @Override
    public String name() {
      return "forgetful";
    }

    @Override
    public String description() {
      return "kills a TaskManager without checking there is one";
    }

    @Override
    public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
      return required;
    }

    @Override
    public FaultHandle inject(FaultContext context) {
      injections++;
      Instant now = context.clock().instant();
      FaultEvidence fired =
          new FaultEvidence(
              context.spec().id(),
              name(),
              FaultStatus.FIRED,
              now,
              now,
              "killed a TaskManager",
              Map.of(),
              List.of("it said so"),
              "");
      return new FaultHandle() {
        @Override
        public FaultEvidence evidence() {
          return fired;
        }

        @Override
        public FaultEvidence awaitFired(Duration timeout) {
          return fired;
        }

        @Override
        public RecoveryEvidence awaitRecovery(Duration timeout) {
          throw new AssertionError("a skipped fault is never awaited to recover");
        }

        @Override
        public void close() {}
      };
    }
  }
}
