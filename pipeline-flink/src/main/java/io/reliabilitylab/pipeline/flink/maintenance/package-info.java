/**
 * Table maintenance for the reference pipelines' Iceberg tables: compaction with Iceberg's own
 * rewrite-data-files action while the job keeps committing, reported as a {@link
 * io.reliabilitylab.spi.pipeline.MaintenanceReport}.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.maintenance;

import org.jspecify.annotations.NullMarked;
