/**
 * An in-memory pipeline and broker to unit-test a fault plugin on, without Flink, Kafka, a database
 * or Iceberg: {@link io.reliabilitylab.testkit.simulated.SimulatedPipeline} runs a job that fails,
 * restarts, checkpoints and commits on a background tick when its fault points fire, and {@link
 * io.reliabilitylab.testkit.simulated.SimulatedBroker} adds the broker path (connector, topic,
 * dead-letter queue, replay deduplication). Knobs on both make them misbehave, so that a fault's
 * proof can be shown to refuse what it must not accept.
 */
@NullMarked
package io.reliabilitylab.testkit.simulated;

import org.jspecify.annotations.NullMarked;
