/**
 * Iceberg without Flink: the lab's reference table schemas, a Hadoop catalog on a local directory,
 * and readers that turn any table at a snapshot into the lab's row sets, changelogs and snapshot
 * listings.
 */
@NullMarked
package io.reliabilitylab.checks.iceberg;

import org.jspecify.annotations.NullMarked;
