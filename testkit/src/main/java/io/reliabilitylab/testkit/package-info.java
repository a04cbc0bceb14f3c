/**
 * Contract tests for plugin authors: extend {@link
 * io.reliabilitylab.testkit.ReconciliationCheckContract} or {@link
 * io.reliabilitylab.testkit.FaultInjectorContract}, implement one factory method, and the kit
 * proves the plugin keeps the SPI's promises against standard data.
 */
@NullMarked
package io.reliabilitylab.testkit;

import org.jspecify.annotations.NullMarked;
