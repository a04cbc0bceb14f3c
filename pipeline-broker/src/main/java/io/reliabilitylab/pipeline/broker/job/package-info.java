/**
 * The Flink side of the broker pipeline: the Kafka record deserializer that never fails on poison,
 * the router that sends quarantined records to the dead-letter sink, and the keyed operator that
 * drops replayed changes.
 */
@NullMarked
package io.reliabilitylab.pipeline.broker.job;

import org.jspecify.annotations.NullMarked;
