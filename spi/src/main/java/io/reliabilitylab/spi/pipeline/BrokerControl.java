package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.check.LinkageRecord;
import java.util.List;
import org.apiguardian.api.API;

/** Controls the message broker between the source connector and the job. */
@API(status = STABLE)
public interface BrokerControl extends PipelineCapability {

  /** Stops the broker. */
  void stop() throws Exception;

  /** Starts it again on the same address and data. */
  void start() throws Exception;

  /**
   * Observes offsets, the latest checkpoint and the tables' snapshots now. Observations labelled
   * {@code final} wait (boundedly) until the consumer's committed offsets reached the log end, so
   * that a lag left at the end is real, not a commit still in flight.
   */
  LinkageRecord observeLinkage(String label) throws Exception;

  /** Every observation made so far, oldest first (faults observe too, e.g. after a repair). */
  default List<LinkageRecord> observations() {
    return List.of();
  }

  /** The broker's address as clients use it (bootstrap servers), for the run record. */
  default String address() {
    return "";
  }
}
