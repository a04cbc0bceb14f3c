/**
 * The {@link io.reliabilitylab.spi.check.ReconciliationCheck} SPI: a check reads one {@link
 * io.reliabilitylab.spi.check.CheckContext} and returns a verdict with its evidence.
 */
@NullMarked
package io.reliabilitylab.spi.check;

import org.jspecify.annotations.NullMarked;
