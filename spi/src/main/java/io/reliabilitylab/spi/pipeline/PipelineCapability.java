package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Marker for one thing a pipeline lets the lab do or see. Faults name the capabilities they need; a
 * pipeline that lacks one gets the fault reported as skipped, with the reason.
 */
@API(status = STABLE)
public interface PipelineCapability {}
