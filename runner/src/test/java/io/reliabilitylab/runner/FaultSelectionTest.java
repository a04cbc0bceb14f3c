package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultSelectionTest {

  private static final FaultInjector PLAIN = fault("plain", List.of());
  private static final FaultInjector VARIED =
      fault(
          "varied",
          List.of(
              FaultVariant.of("snapshot-phase", "in the snapshot")
                  .at(new FaultPosition.SnapshotPhase(200)),
              FaultVariant.of("older", "from an older savepoint")
                  .expectedToDiverge("apache/iceberg#10892: silent data loss")));
  private static final List<FaultInjector> DISCOVERED = List.of(PLAIN, VARIED);

  @Test
  void allSelectsEveryVariantOfEveryFault() {
    assertThat(names(FaultSelection.parse("all", DISCOVERED)))
        .containsExactly("plain", "varied", "varied:snapshot-phase", "varied:older");
  }

  @Test
  void aFaultsNameSelectsAllItsVariantsAndAVariantNameOnlyItself() {
    assertThat(names(FaultSelection.parse("varied:older, plain, varied", DISCOVERED)))
        .containsExactly("varied:older", "plain", "varied", "varied:snapshot-phase");
  }

  @Test
  void allPlansAVariantOnlyWhereThePipelineOffersWhatTheVariantNeeds() {
    FaultInjector killing =
        fault(
            "killing",
            List.of(
                FaultVariant.of("process-kill", "SIGKILLs the process")
                    .requires(TaskManagerProcessControl.class)));
    List<FaultInjector> discovered = List.of(killing);

    assertThat(names(FaultSelection.parse("all", discovered, Set.of(TaskManagerControl.class))))
        .containsExactly("killing");
    // a subtype offered covers the variant's need
    assertThat(
            names(FaultSelection.parse("all", discovered, Set.of(TaskManagerProcessControl.class))))
        .containsExactly("killing", "killing:process-kill");
    // named explicitly, it is kept: the run reports it skipped
    assertThat(
            names(
                FaultSelection.parse(
                    "killing:process-kill", discovered, Set.of(TaskManagerControl.class))))
        .containsExactly("killing:process-kill");
    // a fault named alone: its default variant either way, the others where they can run
    assertThat(names(FaultSelection.parse("killing", discovered, Set.of(TaskManagerControl.class))))
        .containsExactly("killing");
    assertThat(
            names(
                FaultSelection.parse(
                    "killing", discovered, Set.of(TaskManagerProcessControl.class))))
        .containsExactly("killing", "killing:process-kill");
  }

  @Test
  void parametersAfterAtSetTheSpecOverTheVariantsOwn() {
    List<FaultSelection.Choice> chosen =
        FaultSelection.parse("varied:older@latency-ms=800@jitter-ms=0, plain@x=1", DISCOVERED);
    assertThat(names(chosen)).containsExactly("varied:older", "plain");
    assertThat(chosen.get(0).variant().faultParameters())
        .containsExactly(Map.entry("latency-ms", "800"), Map.entry("jitter-ms", "0"));
    assertThat(chosen.get(0).variant().knownHazard()).startsWith("apache/iceberg#10892");
    assertThat(chosen.get(1).variant().faultParameters()).containsExactly(Map.entry("x", "1"));
    assertThatThrownBy(() -> FaultSelection.parse("plain@latency-ms", DISCOVERED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'@latency-ms'")
        .hasMessageContaining("is not <parameter>=<value>");
  }

  @Test
  void atPositionPlacesTheFaultWhereItCanFireAndNowhereElse() {
    FaultSelection.Choice chosen =
        FaultSelection.parse("plain@position=now@x=1", DISCOVERED).get(0);
    assertThat(chosen.variant().fixedPosition()).contains(new FaultPosition.Now());
    assertThat(chosen.variant().faultParameters())
        .as("position is no spec parameter")
        .containsExactly(Map.entry("x", "1"));

    assertThatThrownBy(() -> FaultSelection.parse("plain@position=after-event:5", DISCOVERED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "'plain@position=after-event:5': fault plain cannot fire at after-event:5; it takes"
                + " positions of kind [now]");
    assertThatThrownBy(() -> FaultSelection.parse("plain@position=sometime", DISCOVERED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("'plain@position=sometime': Unknown fault position 'sometime'");
  }

  @Test
  void aPlusCountsTheCheckpointFromTheFaultsInjection() {
    FaultInjector checkpointed =
        fault("checkpointed", List.of(), Set.of(FaultPosition.Kind.AT_CHECKPOINT));
    List<FaultInjector> discovered = List.of(checkpointed);

    FaultSelection.Choice relative =
        FaultSelection.parse("checkpointed@position=at-checkpoint:+4", discovered).get(0);
    assertThat(relative.countedFromInjection()).isTrue();
    assertThat(relative.variant().fixedPosition()).contains(new FaultPosition.AtCheckpoint(4));
    PlannedFault planned =
        ScenarioPlan.of("direct", "baseline", 42, 100)
            .withFaultVariant("checkpointed", relative.variant(), relative.countedFromInjection())
            .faults()
            .get(0);
    assertThat(planned.resolvedPosition(17)).isEqualTo(new FaultPosition.AtCheckpoint(21));

    FaultSelection.Choice absolute =
        FaultSelection.parse("checkpointed@position=at-checkpoint:4", discovered).get(0);
    assertThat(absolute.countedFromInjection()).isFalse();
    assertThat(FaultSelection.parse("checkpointed", discovered).get(0).countedFromInjection())
        .isFalse();

    assertThatThrownBy(() -> FaultSelection.parse("plain@position=now:+1", DISCOVERED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("'plain@position=now:+1': Unknown fault position");
    FaultInjector counting = fault("counting", List.of(), Set.of(FaultPosition.Kind.AFTER_EVENT));
    assertThatThrownBy(
            () -> FaultSelection.parse("counting@position=after-event:+5", List.of(counting)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "'counting@position=after-event:+5': '+' counts checkpoints from the fault's"
                + " injection; write after-event:5 (event and snapshot-row counts always start at"
                + " the injection)");
  }

  @Test
  void noneSelectsNothing() {
    assertThat(FaultSelection.parse("none", DISCOVERED)).isEmpty();
  }

  @Test
  void anUnknownNameListsTheKnownOnes() {
    assertThatThrownBy(() -> FaultSelection.parse("plain,varied:nope,ghost", DISCOVERED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[varied:nope, ghost]")
        .hasMessageContaining("[plain, varied, varied:snapshot-phase, varied:older]");
  }

  @Test
  void anEmptySelectionIsRefused() {
    assertThatThrownBy(() -> FaultSelection.parse(" , ", DISCOVERED))
        .hasMessageContaining("No fault selected");
  }

  @Test
  void aVariantBecomesAScenarioWithItsPositionParametersAndHazard() {
    FaultVariant older = VARIED.variants().get(2);
    ScenarioPlan plan =
        ScenarioPlan.of("direct", "baseline", 42, 100).withFaultVariant("varied", older);
    assertThat(plan.scenario()).isEqualTo("varied:older");
    assertThat(plan.variant()).isEqualTo("older");
    assertThat(plan.knownHazard()).startsWith("apache/iceberg#10892");
    assertThat(plan.faultsInSnapshotPhase()).isFalse();

    ScenarioPlan snapshot =
        ScenarioPlan.of("direct", "baseline", 42, 100)
            .withFaultVariant("varied", VARIED.variants().get(1));
    assertThat(snapshot.faultsInSnapshotPhase()).isTrue();
    assertThat(snapshot.faults().get(0).position()).isEqualTo(new FaultPosition.SnapshotPhase(200));
  }

  @Test
  void aPlanHasFaultsOrExercisesNotBoth() {
    ScenarioPlan exercise =
        ScenarioPlan.of("direct", "baseline", 42, 100)
            .withExercise("pressure", java.util.Map.of("k", "v"));
    assertThat(exercise.exercises()).containsExactly("pressure");
    assertThat(exercise.options()).containsEntry("k", "v");
    assertThatThrownBy(
            () ->
                new ScenarioPlan(
                    "direct",
                    "both",
                    42,
                    100,
                    java.util.Map.of(),
                    java.time.Duration.ofSeconds(1),
                    java.time.Duration.ofSeconds(1),
                    List.of(PlannedFault.of("plain")),
                    null,
                    null,
                    List.of("pressure")))
        .hasMessageContaining("separate scenarios");
  }

  private static List<String> names(List<FaultSelection.Choice> choices) {
    return choices.stream().map(FaultSelection.Choice::scenarioName).toList();
  }

  private static FaultInjector fault(String name, List<FaultVariant> extra) {
    return fault(name, extra, Set.of(FaultPosition.Kind.NOW));
  }

  private static FaultInjector fault(
      String name, List<FaultVariant> extra, Set<FaultPosition.Kind> positions) {
    return new FaultInjector() {
      @Override
      public Set<FaultPosition.Kind> supportedPositions() {
        return positions;
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return "A test fault.";
      }

      @Override
      public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
        return Set.of();
      }

      @Override
      public List<FaultVariant> variants() {
        List<FaultVariant> all = new java.util.ArrayList<>();
        all.add(FaultVariant.standard(description()));
        all.addAll(extra);
        return all;
      }

      @Override
      public FaultHandle inject(FaultContext context) {
        throw new UnsupportedOperationException("never injected");
      }
    };
  }
}
