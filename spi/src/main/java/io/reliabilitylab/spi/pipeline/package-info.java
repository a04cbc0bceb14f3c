/**
 * What a pipeline under test offers the lab, as capabilities with no engine types in them; a
 * reference pipeline and a user's own pipeline implement the same interfaces.
 */
@NullMarked
package io.reliabilitylab.spi.pipeline;

import org.jspecify.annotations.NullMarked;
