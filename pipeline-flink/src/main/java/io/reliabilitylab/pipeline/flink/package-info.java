/**
 * What the reference pipelines share on Flink: the running pipeline as the lab sees it ({@link
 * io.reliabilitylab.pipeline.flink.FlinkPipeline}), clusters, fault points, the Iceberg sinks and
 * table maintenance. A pipeline module adds its source.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink;

import org.jspecify.annotations.NullMarked;
