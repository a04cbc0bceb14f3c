/**
 * What every reference job shares from its change envelopes on: checkpointing and restarts, the
 * operator fault point and the two Iceberg sinks, and their settings.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.job;

import org.jspecify.annotations.NullMarked;
