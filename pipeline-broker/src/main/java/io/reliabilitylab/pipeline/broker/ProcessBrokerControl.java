package io.reliabilitylab.pipeline.broker;

import io.reliabilitylab.pipeline.broker.kafka.KafkaBrokerProcess;
import io.reliabilitylab.spi.pipeline.BrokerProcessControl;
import java.util.List;

/** {@link BrokerProcessControl} over the broker process the pipeline started. */
final class ProcessBrokerControl implements BrokerProcessControl {

  private final KafkaBrokerProcess broker;

  ProcessBrokerControl(KafkaBrokerProcess broker) {
    this.broker = broker;
  }

  @Override
  public long pid() {
    return broker.pid();
  }

  @Override
  public int kill() throws Exception {
    return broker.kill().exitStatus();
  }

  @Override
  public boolean isAlive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Override
  public List<String> recoveryLog() {
    return broker.recoveryLog();
  }
}
