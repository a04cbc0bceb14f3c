package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.check.LinkageRecord;
import org.apiguardian.api.API;

/** Controls the message broker between the source connector and the job. */
@API(status = STABLE)
public interface BrokerControl extends PipelineCapability {

  /** Stops the broker. */
  void stop() throws Exception;

  /** Starts it again on the same address and data. */
  void start() throws Exception;

  /** Observes offsets, the latest checkpoint and the tables' snapshots now. */
  LinkageRecord observeLinkage(String label) throws Exception;
}
