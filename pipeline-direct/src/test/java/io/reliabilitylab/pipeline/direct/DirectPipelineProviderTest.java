package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.faults.WalSenderTerminationInjector;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.SourceHeartbeats;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the direct pipeline offers by its source's engine, and what {@code --faults all} picks. */
class DirectPipelineProviderTest {

  private final DirectPipelineProvider provider = new DirectPipelineProvider();

  @Test
  void onlyAPostgresSourceOffersItsReplicationSlot() {
    assertThat(provider.capabilities()).doesNotContain(ReplicationSlotAccess.class);
    assertThat(provider.capabilities(Map.of(LabOptions.SOURCE_ENGINE, LabOptions.MYSQL)))
        .doesNotContain(ReplicationSlotAccess.class);
    assertThat(provider.capabilities(Map.of(LabOptions.SOURCE_ENGINE, LabOptions.POSTGRESQL)))
        .contains(ReplicationSlotAccess.class)
        .containsAll(provider.capabilities());
  }

  @Test
  void allPlansTheWalsenderFaultOnPostgresOnly() {
    List<FaultInjector> faults =
        Discovered.faults(getClass().getClassLoader()).requireNoProblems().all();
    assertThat(scenarios(faults, LabOptions.MYSQL))
        .doesNotContain(WalSenderTerminationInjector.NAME);
    assertThat(scenarios(faults, LabOptions.POSTGRESQL))
        .contains(WalSenderTerminationInjector.NAME);
  }

  @Test
  void flink39265IsPlannedOnPostgresOnlyWhereTheSourceWasGivenHeartbeats() {
    List<FaultInjector> faults =
        Discovered.faults(getClass().getClassLoader()).requireNoProblems().all();
    String hazard = "task-failure:" + TaskFailureInjector.HEARTBEATS_AFTER_IDLE_COMMIT;
    Map<String, String> heartbeats = Map.of(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS, "100");
    assertThat(
            provider.capabilities(
                Map.of(
                    LabOptions.SOURCE_ENGINE,
                    LabOptions.POSTGRESQL,
                    LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS,
                    "100")))
        .contains(SourceHeartbeats.class);
    assertThat(scenarios(faults, LabOptions.POSTGRESQL, heartbeats)).contains(hazard);
    // the README's suite (Flink CDC's 30 s default) and MySQL do not plan it
    assertThat(scenarios(faults, LabOptions.POSTGRESQL, Map.of())).doesNotContain(hazard);
    assertThat(scenarios(faults, LabOptions.MYSQL, heartbeats)).doesNotContain(hazard);
  }

  @Test
  void theSnapshotSplitsRegressionIsPlannedWithSmallChunksOnEitherEngine() {
    List<FaultInjector> faults =
        Discovered.faults(getClass().getClassLoader()).requireNoProblems().all();
    assertThat(provider.capabilities()).contains(SnapshotSplits.class);
    assertThat(provider.optionalOptions()).contains(LabOptions.SOURCE_SNAPSHOT_SPLIT_SIZE);
    assertThat(scenarios(faults, LabOptions.MYSQL)).contains("task-exception:snapshot-splits");
    assertThat(scenarios(faults, LabOptions.POSTGRESQL)).contains("task-exception:snapshot-splits");
  }

  @Test
  void aSplitSizeIsAWholeNumberOfRowsOrRefusedInOneLine() {
    assertThat(DirectPipelineProvider.splitSize(Optional.empty())).isEqualTo(100_000);
    assertThat(DirectPipelineProvider.splitSize(Optional.of(" 4 "))).isEqualTo(4);
    for (String bad : List.of("0", "-3", "four", "1.5")) {
      assertThatThrownBy(() -> DirectPipelineProvider.splitSize(Optional.of(bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("source.snapshot.split-size='" + bad + "'")
          .hasMessageContaining("at least 1")
          .hasMessageNotContaining("\n");
    }
  }

  private List<String> scenarios(List<FaultInjector> faults, String engine) {
    return scenarios(faults, engine, Map.of());
  }

  private List<String> scenarios(
      List<FaultInjector> faults, String engine, Map<String, String> options) {
    Map<String, String> planning = new java.util.HashMap<>(options);
    planning.put(LabOptions.SOURCE_ENGINE, engine);
    return FaultSelection.parse("all", faults, provider.capabilities(planning)).stream()
        .map(FaultSelection.Choice::scenarioName)
        .toList();
  }
}
