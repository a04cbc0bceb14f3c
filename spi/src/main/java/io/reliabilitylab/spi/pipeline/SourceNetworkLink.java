package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Says that the pipeline's connections to its source database (the change-log reader's and its
 * queries') go through a {@link NetworkLink} of the lab. Offered when the pipeline runs with
 * {@value LabOptions#NETWORK_PROXY}; the lab's writer and oracle reach the database directly.
 */
@API(status = EXPERIMENTAL)
public interface SourceNetworkLink extends PipelineCapability {

  /** The link between the pipeline and its source database. */
  NetworkLink sourceLink();
}
