/**
 * Deliberately broken sinks, the negative controls the lab must catch: each behaves like the
 * reference sink on a run without faults and diverges only when a fault strikes.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.sink.broken;

import org.jspecify.annotations.NullMarked;
