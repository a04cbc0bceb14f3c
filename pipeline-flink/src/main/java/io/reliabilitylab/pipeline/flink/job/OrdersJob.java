package io.reliabilitylab.pipeline.flink.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.cluster.FlinkJob;
import io.reliabilitylab.spi.data.CommitConsistency;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A reference job from some CDC source to {@code orders_current} and {@code orders_changelog}: what
 * {@link io.reliabilitylab.pipeline.flink.FlinkPipeline} needs to run, restore and describe it.
 */
@API(status = EXPERIMENTAL)
public interface OrdersJob extends FlinkJob {

  /** The settings shared by every reference job. */
  OrdersJobSettings settings();

  /** The same job at another parallelism, for a restore. */
  OrdersJob withParallelism(int parallelism);

  /** The settings that decide a verdict, source and sinks, for the run record. No secrets. */
  Map<String, String> effectiveConfiguration();

  /**
   * What a reader of the sink tables may see between two commits: {@link CommitConsistency#PER_KEY}
   * unless the job's topology keeps more (one ordered stream cut by checkpoints keeps a prefix of
   * the source's changes).
   */
  default CommitConsistency commitConsistency() {
    return CommitConsistency.PER_KEY;
  }

  /** The names of the job's fault points (no-ops until armed); empty when they are off. */
  default Set<String> faultPoints() {
    return settings().faultPointNames();
  }
}
