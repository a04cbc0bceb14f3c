/**
 * The broker of the broker pipeline: a real Kafka KRaft broker started in-process, with stop and
 * start on the same address and data, and the topic and offset look-ups the linkage record needs.
 */
@NullMarked
package io.reliabilitylab.pipeline.broker.kafka;

import org.jspecify.annotations.NullMarked;
