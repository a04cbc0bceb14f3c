package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import org.junit.jupiter.api.Test;

/**
 * What {@code walsender-terminated} needs and where it fires. Its skip on a pipeline without a slot
 * is in {@link BuiltInFaultContractTest}; the termination itself runs on a real PostgreSQL in the
 * direct pipeline's PostgresSuiteIT and the broker pipeline's BrokerPostgresIT.
 */
class WalSenderTerminationInjectorTest {

  private final WalSenderTerminationInjector injector = new WalSenderTerminationInjector();

  @Test
  void needsTheSlotTheEndpointTheJobAndTheTablesAndFiresNowOnly() {
    assertThat(injector.requiredCapabilities()).contains(ReplicationSlotAccess.class).hasSize(4);
    assertThat(injector.supportedPositions()).containsExactly(FaultPosition.Kind.NOW);
    assertThat(injector.variants()).hasSize(1);
  }
}
