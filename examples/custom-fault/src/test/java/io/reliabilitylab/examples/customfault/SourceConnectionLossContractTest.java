package io.reliabilitylab.examples.customfault;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.testkit.FaultInjectorContract;

// region contract
/**
 * The testkit's contract for {@code binlog-connection-kill}: well named, found by ServiceLoader,
 * declares its capabilities and positions, is skipped (never "fired") on a pipeline without them,
 * and closes twice without throwing. The live part runs in {@link SourceConnectionLossIT}.
 */
class SourceConnectionLossContractTest extends FaultInjectorContract {

  @Override
  protected FaultInjector createInjector() {
    return new SourceConnectionLossInjector();
  }
}
// endregion
