/**
 * Contract tests for plugin authors: extend {@link
 * io.reliabilitylab.testkit.ReconciliationCheckContract} or {@link
 * io.reliabilitylab.testkit.FaultInjectorContract}, implement one factory method, and the kit
 * proves the plugin keeps the SPI's promises against standard data. A fault plugin is unit-tested
 * and proven live on {@link io.reliabilitylab.testkit.simulated.SimulatedPipeline}; it is written
 * with the plugin kit ({@code io.reliabilitylab.kit}), which the testkit brings along.
 */
@NullMarked
package io.reliabilitylab.testkit;

import org.jspecify.annotations.NullMarked;
