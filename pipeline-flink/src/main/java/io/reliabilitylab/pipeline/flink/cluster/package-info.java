/** Where a job runs: an embedded MiniCluster by default or a session cluster by REST address. */
@NullMarked
package io.reliabilitylab.pipeline.direct.cluster;

import org.jspecify.annotations.NullMarked;
