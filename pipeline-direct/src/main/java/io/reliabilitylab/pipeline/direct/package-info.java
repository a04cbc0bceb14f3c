/**
 * The direct reference pipeline: MySQL/MariaDB binlog, Flink CDC, Flink, Iceberg {@code
 * orders_current} and {@code orders_changelog}; {@code cdc} turns Flink CDC's records into change
 * envelopes, {@code job} builds the Flink job, and {@code ownjob} runs a pipeline team's own job in
 * place of the reference job.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct;

import org.jspecify.annotations.NullMarked;
