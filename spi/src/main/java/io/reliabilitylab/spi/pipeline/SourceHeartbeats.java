package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * Says that the pipeline's change-log reader emits heartbeat records while the source is idle, at
 * the interval the pipeline option {@value LabOptions#SOURCE_HEARTBEAT_INTERVAL_MS} set, so that an
 * idle source's offsets move (and a PostgreSQL slot's confirmed position with them). Offered only
 * when that option is set: a fault whose hazard lives in the heartbeats' offsets needs it.
 */
@API(status = EXPERIMENTAL)
public interface SourceHeartbeats extends PipelineCapability {

  /** The interval between two heartbeat records of an idle source. */
  Duration heartbeatInterval();
}
