/**
 * The source connector of the broker pipeline: Debezium's embedded engine reading the {@code
 * orders} table of a MariaDB and publishing every change to a Kafka topic, at least once, with the
 * controls the broker faults need (poison, stop and start, rewind to an older offset file).
 */
@NullMarked
package io.reliabilitylab.pipeline.broker.source;

import org.jspecify.annotations.NullMarked;
