package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A TaskManager process of a {@link ProcessFlinkCluster}, as seen when asked.
 *
 * @param resourceId its resource id, as the REST API lists it ({@code tm-1}, …)
 * @param pid its operating-system process id
 * @param log its log file
 * @param alive whether the process runs (a paused process is alive)
 * @param paused whether it is stopped by SIGSTOP
 */
@API(status = EXPERIMENTAL)
public record TaskManagerProcess(
    String resourceId, long pid, Path log, boolean alive, boolean paused) {}
