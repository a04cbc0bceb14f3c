package io.reliabilitylab.runner.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.runner.PressureExercise;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which scenarios a suite plans from its selections; running them is {@code RunCommandIT}'s. */
class SuiteTest {

  private static final FaultInjector TASK =
      fault(
          "task",
          Set.of(JobControl.class),
          List.of(
              FaultVariant.standard("the task fails"),
              FaultVariant.of("late", "the task fails later")
                  .at(new FaultPosition.AtCheckpoint(5))));
  private static final FaultInjector BROKER =
      fault("broker", Set.of(BrokerControl.class), List.of(FaultVariant.standard("down")));
  private static final FaultInjector SLOT =
      fault(
          "slot",
          Set.of(ReplicationSlotAccess.class),
          List.of(FaultVariant.standard("walsender gone")));

  @Test
  void aSuiteIsTheBaselineThenEachVariantThenEachExerciseWithItsOptions() {
    Suite suite =
        builder()
            .faults("all")
            .exercises("all")
            .seed(7)
            .events(100)
            .pipelineOptions(Map.of("parallelism", "2"))
            .catchUpTimeout(Duration.ofSeconds(30))
            .build();

    assertThat(suite.plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline", "task", "task:late", "pressure", "compaction");
    assertThat(suite.plans())
        .allSatisfy(
            plan -> {
              assertThat(plan.pipeline()).isEqualTo("direct");
              assertThat(plan.seed()).isEqualTo(7);
              assertThat(plan.events()).isEqualTo(100);
              assertThat(plan.catchUpTimeout()).isEqualTo(Duration.ofSeconds(30));
              assertThat(plan.options()).containsEntry("parallelism", "2");
            });
    ScenarioPlan late = suite.plans().get(2);
    assertThat(late.variant()).isEqualTo("late");
    assertThat(late.faults().get(0).position()).isEqualTo(new FaultPosition.AtCheckpoint(5));
    assertThat(suite.plans().get(3).options()).containsAllEntriesOf(PressureExercise.OPTIONS);
    assertThat(suite.plans().get(3).exercises()).containsExactly("pressure");
  }

  @Test
  void aFaultNamedExplicitlyIsPlannedEvenWhenThePipelineCannotHostIt() {
    assertThat(builder().faults("broker").build().plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline", "broker");
    assertThat(builder().build().plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline");
  }

  @Test
  void allPicksTheFaultsOfTheSourcesEngineOnceItIsKnown() {
    Suite.Builder suite =
        Suite.builder("direct").plugins(List.of(direct()), List.of(), List.of(TASK, SLOT));
    assertThat(suite.faults("all").build().plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline", "task", "task:late");
    assertThat(suite.sourceEngine(LabOptions.MYSQL).build().plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline", "task", "task:late");
    assertThat(suite.sourceEngine(LabOptions.POSTGRESQL).build().plans())
        .extracting(ScenarioPlan::scenario)
        .containsExactly("baseline", "task", "task:late", "slot");
    // the engine decides the planning; it is no pipeline option
    assertThat(suite.build().plans())
        .allSatisfy(plan -> assertThat(plan.options()).doesNotContainKey(LabOptions.SOURCE_ENGINE));
  }

  @Test
  void aVariantsPipelineOptionsRunItsScenarioAndStayOutOfTheFaultsSpec() {
    FaultInjector beat =
        fault(
            "beat",
            Set.of(JobControl.class),
            List.of(
                FaultVariant.standard("plain"),
                FaultVariant.of("fast", "with fast heartbeats")
                    .withPipelineOption(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "100")
                    .with("depth", "2")));
    List<ScenarioPlan> plans =
        Suite.builder("direct")
            .plugins(List.of(direct()), List.of(), List.of(beat))
            .pipelineOptions(Map.of(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "30000", "x", "y"))
            .faults("beat")
            .build()
            .plans();

    ScenarioPlan fast = plans.get(2);
    assertThat(fast.scenario()).isEqualTo("beat:fast");
    // the variant's option wins over the suite's, the others stay
    assertThat(fast.options())
        .containsEntry(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "100")
        .containsEntry("x", "y");
    assertThat(fast.faults().get(0).parameters()).containsExactly(Map.entry("depth", "2"));
    assertThat(plans.get(1).options())
        .containsEntry(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "30000");
  }

  @Test
  void anUnknownSelectionIsRefusedBeforeAnythingRuns() {
    assertThatThrownBy(() -> builder().faults("nope").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining("task:late");
    assertThatThrownBy(() -> builder().exercises("pressure,nope").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining("compaction");
    assertThatThrownBy(
            () -> Suite.builder("other").plugins(List.of(direct()), List.of(), List.of()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other")
        .hasMessageContaining("direct");
  }

  private static Suite.Builder builder() {
    return Suite.builder("direct").plugins(List.of(direct()), List.of(), List.of(TASK, BROKER));
  }

  private static PipelineProvider direct() {
    return new PipelineProvider() {
      @Override
      public String name() {
        return "direct";
      }

      @Override
      public String description() {
        return "a pipeline with a job and no broker";
      }

      @Override
      public Set<Class<? extends PipelineCapability>> capabilities() {
        return Set.of(JobControl.class);
      }

      @Override
      public Set<Class<? extends PipelineCapability>> capabilities(Map<String, String> options) {
        return LabOptions.POSTGRESQL.equals(options.get(LabOptions.SOURCE_ENGINE))
            ? Set.of(JobControl.class, ReplicationSlotAccess.class)
            : capabilities();
      }

      @Override
      public PipelineUnderTest start(PipelineConfig config) {
        throw new UnsupportedOperationException("planned only");
      }
    };
  }

  private static FaultInjector fault(
      String name, Set<Class<? extends PipelineCapability>> required, List<FaultVariant> variants) {
    return new FaultInjector() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return name + " fails";
      }

      @Override
      public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
        return required;
      }

      @Override
      public List<FaultVariant> variants() {
        return variants;
      }

      @Override
      public FaultHandle inject(FaultContext context) {
        throw new UnsupportedOperationException("planned only");
      }
    };
  }
}
