/** Maps change envelopes to the rows of {@code orders_current} and {@code orders_changelog}. */
@NullMarked
package io.reliabilitylab.pipeline.flink.sink;

import org.jspecify.annotations.NullMarked;
