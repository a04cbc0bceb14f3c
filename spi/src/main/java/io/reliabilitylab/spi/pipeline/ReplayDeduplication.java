package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The job's deduplication of events delivered more than once (by source position per key). */
@API(status = EXPERIMENTAL)
public interface ReplayDeduplication extends PipelineCapability {

  /**
   * How many events the deduplication dropped as replays in the job's current run (Flink resets
   * operator counters when the job restarts).
   */
  long droppedReplays() throws Exception;

  /**
   * How many events the deduplication recognized as replays in the job's current run, whether it
   * dropped them or not: what shows that a redelivery reached the job. A deduplication that counts
   * only what it drops answers {@link #droppedReplays()}.
   */
  default long seenReplays() throws Exception {
    return droppedReplays();
  }
}
