/** A deliberate violation of the SPI rule, to prove the architecture test can fail. */
@NullMarked
package io.reliabilitylab.spi.archfixture;

import org.jspecify.annotations.NullMarked;
