/** The change envelope every reference job carries from its source to its sinks. */
@NullMarked
package io.reliabilitylab.pipeline.flink.envelope;

import org.jspecify.annotations.NullMarked;
