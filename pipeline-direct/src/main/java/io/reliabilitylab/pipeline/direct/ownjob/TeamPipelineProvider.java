package io.reliabilitylab.pipeline.direct.ownjob;

import io.reliabilitylab.pipeline.direct.DirectPipelineProvider;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.FlinkClusters;
import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A team's job as a pipeline: the direct pipeline's options, cluster and source, the team's job in
 * place of the reference job, and the capabilities of a Flink pipeline without {@link FaultPoints}.
 */
final class TeamPipelineProvider implements PipelineProvider {

  /**
   * What a team's job offers on the embedded MiniCluster: everything but fault points, and the
   * proxied link to its source (its source connects where the direct pipeline's would).
   */
  static final Set<Class<? extends PipelineCapability>> CAPABILITIES =
      java.util.stream.Stream.concat(
              FlinkPipeline.EMBEDDED_CAPABILITIES.stream()
                  .filter(capability -> capability != FaultPoints.class),
              java.util.stream.Stream.of(SourceNetworkLink.class))
          .collect(Collectors.toUnmodifiableSet());

  private final String name;
  private final String description;
  private final Function<DirectJobConfig, OrdersJob> jobOf;
  private final DirectPipelineProvider direct = new DirectPipelineProvider();

  TeamPipelineProvider(
      String name, String description, Function<DirectJobConfig, OrdersJob> jobOf) {
    this.name = name;
    this.description = description;
    this.jobOf = jobOf;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public Set<String> requiredOptions() {
    return direct.requiredOptions();
  }

  @Override
  public Set<String> optionalOptions() {
    return direct.optionalOptions();
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities(Map<String, String> options) {
    return FlinkClusters.capabilities(CAPABILITIES, options);
  }

  @Override
  public PipelineUnderTest start(PipelineConfig config) throws Exception {
    if (config
        .option(OrdersJobSettings.TRANSACTIONS_OPTION)
        .filter(value -> value.strip().equalsIgnoreCase("aligned"))
        .isPresent()) {
      // the aligner is the reference job's operator: a team's job would get the fence's changes
      // and claim transaction prefixes it does not keep
      throw new IllegalArgumentException(
          OrdersJobSettings.TRANSACTIONS_OPTION
              + "=aligned is the reference job's; pipeline "
              + name
              + " runs the team's job as it is: drop the option");
    }
    return direct.start(name, config, jobOf);
  }

  @Override
  public String toString() {
    return "TeamPipelineProvider[" + name + "]";
  }
}
