package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.Named;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Creates a {@link PipelineUnderTest} by name ({@code direct}, {@code broker}, or a user's own).
 * The runner cannot depend on pipelines, so it finds them with {@link java.util.ServiceLoader};
 * register an implementation with {@code @AutoService(PipelineProvider.class)}.
 */
@API(status = STABLE)
public interface PipelineProvider extends Named {

  /** Option keys the pipeline cannot run without. */
  default Set<String> requiredOptions() {
    return Set.of();
  }

  /** Option keys the pipeline understands beyond the required ones. */
  default Set<String> optionalOptions() {
    return Set.of();
  }

  /**
   * The capabilities a started pipeline of this kind can offer, so that {@code --faults all} picks
   * only faults it can inject (a started pipeline may offer fewer, e.g. without an embedded
   * cluster). Empty means not declared: every fault is then selected.
   */
  default Set<Class<? extends PipelineCapability>> capabilities() {
    return Set.of();
  }

  /**
   * The capabilities a pipeline of this kind started with {@code options} can offer: what {@link
   * #capabilities()} says unless the options change it (e.g. a cluster of processes, whose
   * TaskManagers can be killed, instead of an embedded one). The runner adds {@link
   * LabOptions#SOURCE_ENGINE} when it knows the source's engine (e.g. a PostgreSQL source, whose
   * replication slot a fault can reach).
   */
  default Set<Class<? extends PipelineCapability>> capabilities(Map<String, String> options) {
    return capabilities();
  }

  /**
   * Starts the pipeline: its source, its job, its sinks. Returns once the job is running; the
   * caller closes the result.
   *
   * @throws Exception when the pipeline cannot start; the message says what was wrong and what to
   *     do
   */
  PipelineUnderTest start(PipelineConfig config) throws Exception;
}
