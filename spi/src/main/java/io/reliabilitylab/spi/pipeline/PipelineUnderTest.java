package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A running pipeline as the lab sees it: a name, the delivery guarantee it claims, and a set of
 * capabilities looked up by type.
 *
 * <pre>{@code
 * pipeline.capability(JobControl.class)
 *     .orElseThrow()
 *     .awaitCompletedCheckpointAfter(injectedAt, Duration.ofSeconds(30));
 * }</pre>
 *
 * Closing it stops the job and everything it started.
 */
@API(status = STABLE)
public interface PipelineUnderTest extends AutoCloseable {

  /** The provider's name, e.g. {@code direct}. */
  String name();

  /** The delivery guarantee this pipeline claims for its tables. */
  DeliverySemantics semantics();

  /**
   * What a reader of the sink tables may see between two commits, as this pipeline claims it; the
   * reader's-view check holds every commit to it. {@link CommitConsistency#PER_KEY} unless
   * overridden.
   */
  default CommitConsistency commitConsistency() {
    return CommitConsistency.PER_KEY;
  }

  /** The types of the capabilities this pipeline offers. */
  Set<Class<? extends PipelineCapability>> capabilities();

  /** A capability, if this pipeline offers it. */
  <T extends PipelineCapability> Optional<T> capability(Class<T> type);

  /**
   * The configuration that decides a verdict, as the pipeline actually runs it: restart strategy,
   * checkpoint interval / timeout / tolerance, sink version, flush intervals. No secrets.
   */
  Map<String, String> effectiveConfiguration();

  /** Versions of the components this pipeline runs, e.g. {@code flink -> 1.20.3}. */
  Map<String, String> stackVersions();

  /** Stops the job and releases everything the pipeline started. */
  @Override
  void close() throws Exception;
}
