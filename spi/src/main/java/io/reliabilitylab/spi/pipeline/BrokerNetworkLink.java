package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Says that the pipeline's connections to its Kafka broker (the publisher's producer and the job's
 * consumer) go through a {@link NetworkLink} of the lab: the broker advertises the proxy's address
 * on a listener of its own, so that clients reconnecting after metadata still go through it.
 * Offered when the pipeline runs with {@value LabOptions#NETWORK_PROXY} on a broker the lab starts.
 */
@API(status = EXPERIMENTAL)
public interface BrokerNetworkLink extends PipelineCapability {

  /** The link between the pipeline and its Kafka broker. */
  NetworkLink brokerLink();
}
