package io.reliabilitylab.junit;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.junit.testplugins.PlannedOnlyFault;
import io.reliabilitylab.junit.testplugins.UnstartablePipeline;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.fault.FaultPosition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scenario builder as a test sees it: the defaults it takes from the extension and the running
 * test, and how faults, variants and positions become the runner's plan.
 */
class ScenarioBuilderTest {

  private static final UnreachableSource SOURCE = new UnreachableSource();

  @RegisterExtension
  static final ReliabilityLabExtension lab =
      ReliabilityLabExtension.forPipeline(UnstartablePipeline.NAME).withSource(SOURCE);

  @Test
  void aScenarioStartsFromTheLabsDefaultsAndNamesTheTest() {
    ScenarioBuilder scenario = lab.scenario();

    ScenarioPlan plan = scenario.plan();
    assertThat(plan.pipeline()).isEqualTo(UnstartablePipeline.NAME);
    assertThat(plan.scenario()).isEqualTo("baseline");
    assertThat(plan.seed()).isEqualTo(42);
    assertThat(plan.events()).isEqualTo(1_000);
    assertThat(plan.options()).isEmpty();
    assertThat(plan.startTimeout()).isEqualTo(ofSeconds(60));
    assertThat(plan.catchUpTimeout()).isEqualTo(ofSeconds(120));
    assertThat(plan.faults()).isEmpty();
    assertThat(scenario.runDirectory())
        .isEqualTo(
            Path.of(
                "target",
                "lab-runs",
                "ScenarioBuilderTest",
                "aScenarioStartsFromTheLabsDefaultsAndNamesTheTest"))
        .isEqualTo(lab.runDirectory());
    assertThat(scenario.command())
        .containsExactly(
            "junit", "ScenarioBuilderTest#aScenarioStartsFromTheLabsDefaultsAndNamesTheTest");
  }

  @Test
  void theTestOverridesWhatItNames() {
    ScenarioPlan plan =
        lab.scenario()
            .seed(7)
            .events(200)
            .option("sink.parallelism", "2")
            .startTimeout(ofSeconds(5))
            .catchUpTimeout(ofSeconds(9))
            .plan();

    assertThat(plan.seed()).isEqualTo(7);
    assertThat(plan.events()).isEqualTo(200);
    assertThat(plan.options()).containsExactly(Map.entry("sink.parallelism", "2"));
    assertThat(plan.startTimeout()).isEqualTo(ofSeconds(5));
    assertThat(plan.catchUpTimeout()).isEqualTo(ofSeconds(9));
    // a scenario's settings are its own
    assertThat(lab.scenario().plan().seed()).isEqualTo(42);
  }

  @Test
  void aTestChoosesTheFlinkClusterOfProcesses() {
    ScenarioPlan plan = lab.scenario().flinkCluster("processes:2jm").plan();

    assertThat(plan.options()).containsEntry("flink.cluster", "processes:2jm");
  }

  @Test
  void aFaultByNameRunsItsDefaultVariant() {
    ScenarioPlan plan = lab.scenario().inject(PlannedOnlyFault.NAME).plan();

    assertThat(plan.scenario()).isEqualTo(PlannedOnlyFault.NAME);
    assertThat(plan.variant()).isEqualTo("default");
    assertThat(plan.faults()).containsExactly(PlannedFault.of(PlannedOnlyFault.NAME));
  }

  @Test
  void aVariantIsNamedAfterAColon() {
    ScenarioPlan plan =
        lab.scenario().inject(PlannedOnlyFault.NAME + ":" + PlannedOnlyFault.EARLY).plan();

    assertThat(plan.scenario()).isEqualTo("junit-test-fault:early");
    assertThat(plan.variant()).isEqualTo(PlannedOnlyFault.EARLY);
    assertThat(plan.faults())
        .containsExactly(
            new PlannedFault(
                PlannedOnlyFault.NAME,
                new FaultPosition.SnapshotPhase(50),
                Map.of("speed", "fast")));
  }

  @Test
  void aPlacedFaultCountsItsCheckpointsFromTheInjection() {
    ScenarioPlan plan = lab.scenario().inject(PlannedOnlyFault.NAME, "at-checkpoint:2").plan();

    assertThat(plan.scenario()).isEqualTo("junit-test-fault@at-checkpoint:2");
    assertThat(plan.faults())
        .containsExactly(
            new PlannedFault(
                PlannedOnlyFault.NAME, new FaultPosition.AtCheckpoint(2), Map.of(), true));
  }

  @Test
  void faultsAreInjectedInTheOrderGiven() {
    ScenarioPlan plan =
        lab.scenario()
            .inject(PlannedOnlyFault.NAME + ":" + PlannedOnlyFault.EARLY)
            .inject(PlannedOnlyFault.NAME, new FaultPosition.Now())
            .plan();

    assertThat(plan.scenario()).isEqualTo("junit-test-fault:early+junit-test-fault@now");
    assertThat(plan.faults())
        .extracting(PlannedFault::position)
        .containsExactly(new FaultPosition.SnapshotPhase(50), new FaultPosition.Now());
  }

  @Test
  void anUnknownFaultOrVariantIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> lab.scenario().inject("no-such-fault"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[no-such-fault]")
        .hasMessageContaining("junit-test-fault:early");
    assertThatThrownBy(() -> lab.scenario().inject(PlannedOnlyFault.NAME + ":late"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[junit-test-fault:late]");
  }

  @Test
  void injectNamesOneFault() {
    for (String several : List.of("all", "none", PlannedOnlyFault.NAME + ",task-failure")) {
      assertThatThrownBy(() -> lab.scenario().inject(several))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("inject names one fault")
          .hasMessageContaining("call inject once per fault");
    }
  }

  @Test
  void aPositionTheFaultDoesNotSupportIsRefused() {
    assertThatThrownBy(() -> lab.scenario().inject(PlannedOnlyFault.NAME, "after-event:10"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Fault 'junit-test-fault' cannot fire at after-event:10")
        .hasMessageContaining("AT_CHECKPOINT");
    assertThatThrownBy(() -> lab.scenario().inject(PlannedOnlyFault.NAME, "at-checkpoint:x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown fault position 'at-checkpoint:x'");
  }

  @Test
  void badSettingsAreRefused() {
    assertThatThrownBy(() -> lab.scenario().events(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("events must be >= 0, got -1");
    assertThatThrownBy(() -> lab.scenario().catchUpTimeout(ofSeconds(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catchUpTimeout must be positive, got PT0S");
  }

  @Test
  void aRunIsRecordedInTheTestsDirectoryUnderItsCommand() throws Exception {
    RunRecord run = lab.scenario().inject(PlannedOnlyFault.NAME).run();

    // the source cannot be reached: an environment error, never a pass
    LabAssertions.assertThat(run).inconclusive();
    assertThat(run.summary().error()).contains(UnreachableSource.REFUSAL);
    assertThat(run.command())
        .isEqualTo("junit 'ScenarioBuilderTest#aRunIsRecordedInTheTestsDirectoryUnderItsCommand'");
    assertThat(run.scenario().name()).isEqualTo(PlannedOnlyFault.NAME);
    Path written = lab.runDirectory().resolve(run.runId() + ".json");
    assertThat(written).isRegularFile();
    assertThat(RunRecordReader.read(written).runId()).isEqualTo(run.runId());
  }

  @Test
  void outsideATestThereIsNoScenario() {
    ReliabilityLabExtension unregistered = ReliabilityLabExtension.forPipeline("direct");

    assertThatThrownBy(unregistered::scenario)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inside a test method of a class that registers this extension");
  }
}
