package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.WalSenderTerminationInjector;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import java.util.List;
import java.util.Map;
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

  private List<String> scenarios(List<FaultInjector> faults, String engine) {
    return FaultSelection.parse(
            "all", faults, provider.capabilities(Map.of(LabOptions.SOURCE_ENGINE, engine)))
        .stream()
        .map(FaultSelection.Choice::scenarioName)
        .toList();
  }
}
