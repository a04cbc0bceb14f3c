/**
 * The direct reference pipeline: MySQL/MariaDB binlog, Flink CDC, Flink, Iceberg {@code
 * orders_current} and {@code orders_changelog}; {@code cdc} keeps the change envelope, {@code job}
 * builds the Flink job, {@code iceberg} creates and reads the tables, {@code cluster} runs the job.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct;

import org.jspecify.annotations.NullMarked;
