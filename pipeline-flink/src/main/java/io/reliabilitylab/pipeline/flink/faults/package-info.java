/**
 * The reference jobs' built-in fault points (split enumerator, operator, checkpoint storage,
 * Iceberg commit), no-ops until {@link io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard}
 * arms one.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.faults;

import org.jspecify.annotations.NullMarked;
