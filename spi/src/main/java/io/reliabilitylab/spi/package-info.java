/**
 * The lab's service provider interfaces: what a plugin author implements and what a pipeline
 * exposes. Depends on the JDK only; engine types (Flink, Kafka, Debezium, Iceberg) never appear
 * here, pipelines adapt them.
 */
@NullMarked
package io.reliabilitylab.spi;

import org.jspecify.annotations.NullMarked;
