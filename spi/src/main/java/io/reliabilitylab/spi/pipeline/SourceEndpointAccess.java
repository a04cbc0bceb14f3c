package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Tells a fault where the pipeline's source database is and which account its connector reads it
 * with, so that the fault can open its own connection to the source (to kill the connector's
 * session, say). A fault that needs it lists it among its required capabilities and reads it
 * through {@link io.reliabilitylab.spi.fault.FaultContext#source()}.
 */
@API(status = EXPERIMENTAL)
public interface SourceEndpointAccess extends PipelineCapability {

  /** The source the pipeline reads, as it was started with ({@link PipelineConfig#source()}). */
  SourceEndpoint sourceEndpoint();
}
