/**
 * The Flink job (DataStream API) from the CDC source to the two Iceberg sinks, and its
 * configuration.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct.job;

import org.jspecify.annotations.NullMarked;
