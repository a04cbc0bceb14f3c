/** Where a job runs: an embedded MiniCluster by default or a session cluster by REST address. */
@NullMarked
package io.reliabilitylab.pipeline.flink.cluster;

import org.jspecify.annotations.NullMarked;
