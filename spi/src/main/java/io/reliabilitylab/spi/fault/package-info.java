/**
 * The {@link io.reliabilitylab.spi.fault.FaultInjector} SPI: a fault is a reversible lifecycle that
 * proves it fired.
 */
@NullMarked
package io.reliabilitylab.spi.fault;

import org.jspecify.annotations.NullMarked;
