/**
 * The plugin kit: what a {@link io.reliabilitylab.spi.fault.FaultInjector} builds its handle from,
 * as the built-in faults do. {@link io.reliabilitylab.kit.ProvenFault} reports a fault fired only
 * when its {@link io.reliabilitylab.kit.ProofRule} proves it from {@link
 * io.reliabilitylab.kit.Observation}s of a {@link io.reliabilitylab.kit.PipelineView}, waits for
 * recovery (running, a checkpoint and a sink commit after the fault) and heals once; {@link
 * io.reliabilitylab.kit.CapabilityCheck} and {@link io.reliabilitylab.kit.SkippedFault} report a
 * fault the pipeline cannot host as skipped, with the reason. Depends on the SPI only.
 */
@NullMarked
package io.reliabilitylab.kit;

import org.jspecify.annotations.NullMarked;
