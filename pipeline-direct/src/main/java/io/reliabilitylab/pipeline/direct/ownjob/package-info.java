/**
 * A pipeline team's own Flink job under the lab's faults: a {@link
 * io.reliabilitylab.pipeline.direct.ownjob.TeamTopology} over the lab's CDC stream, or a {@link
 * io.reliabilitylab.pipeline.direct.ownjob.TeamJob} that reads the source itself, writing the
 * Iceberg tables the lab reads ({@link io.reliabilitylab.pipeline.direct.ownjob.SinkTables}), run
 * by {@link io.reliabilitylab.pipeline.direct.ownjob.OwnJobPipelines} as a pipeline of its own.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct.ownjob;

import org.jspecify.annotations.NullMarked;
