/**
 * The Iceberg side without Flink: the tables' schemas, a Hadoop catalog on a local directory, and
 * readers that turn a table at a snapshot into the lab's row sets and changelogs.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct.iceberg;

import org.jspecify.annotations.NullMarked;
