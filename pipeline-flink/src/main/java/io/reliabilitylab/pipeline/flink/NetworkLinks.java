package io.reliabilitylab.pipeline.flink;

import io.reliabilitylab.pipeline.flink.cluster.ProcessFlinkCluster;
import io.reliabilitylab.spi.pipeline.BrokerNetworkLink;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import io.reliabilitylab.spi.pipeline.ZooKeeperNetworkLink;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * A {@link FlinkPipeline}'s network links: to its source and its broker through the lab's proxies
 * (once the pipeline is routed through them), and its cluster of processes' link to ZooKeeper.
 */
final class NetworkLinks implements SourceNetworkLink, BrokerNetworkLink, ZooKeeperNetworkLink {

  private final Supplier<String> pipelineName;
  // Asked anew on every call: a lost cluster is refused, a restore replaces it.
  private final Supplier<ProcessFlinkCluster> processCluster;
  // The lab's proxies the pipeline's connections go through, when a network fault needs them.
  private volatile PipelineProxies proxies = PipelineProxies.none();

  NetworkLinks(Supplier<String> pipelineName, Supplier<ProcessFlinkCluster> processCluster) {
    this.pipelineName = pipelineName;
    this.processCluster = processCluster;
  }

  PipelineProxies proxies() {
    return proxies;
  }

  void routeThrough(PipelineProxies through) {
    this.proxies = through;
  }

  @Override
  public NetworkLink sourceLink() {
    return proxies
        .source()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    pipelineName.get() + " reaches its source without the lab's proxy"));
  }

  @Override
  public NetworkLink brokerLink() {
    return proxies
        .broker()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    pipelineName.get() + " reaches its broker without the lab's proxy"));
  }

  @Override
  public NetworkLink zooKeeperLink() {
    return processCluster
        .get()
        .zooKeeperLink()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    pipelineName.get()
                        + " runs on no cluster of processes with ZooKeeper behind the lab's proxy"));
  }

  @Override
  public List<String> zooKeeperSymptomsSince(Instant since, int limit) {
    return processCluster.get().zooKeeperSymptomsSince(since, limit);
  }
}
