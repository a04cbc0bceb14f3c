package io.reliabilitylab.pipeline.flink;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.faults.network.TcpProxy;
import io.reliabilitylab.spi.pipeline.BrokerNetworkLink;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The lab's proxies a pipeline's connections go through when its scenario runs with {@value
 * LabOptions#NETWORK_PROXY}: one in front of the source database and, on the broker pipeline, one
 * in front of the Kafka broker. Without the option there are none and nothing is in the way.
 */
@API(status = INTERNAL)
public final class PipelineProxies implements AutoCloseable {

  private static final PipelineProxies NONE = new PipelineProxies(null, null);

  private final @Nullable TcpProxy source;
  private final @Nullable TcpProxy broker;

  private PipelineProxies(@Nullable TcpProxy source, @Nullable TcpProxy broker) {
    this.source = source;
    this.broker = broker;
  }

  /** No proxy: the pipeline connects directly. */
  public static PipelineProxies none() {
    return NONE;
  }

  /** Whether the options ask for the proxies ({@value LabOptions#NETWORK_PROXY}). */
  public static boolean requested(PipelineConfig config) {
    String value = config.option(LabOptions.NETWORK_PROXY, "false").strip();
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(
          "Option " + LabOptions.NETWORK_PROXY + " is true or false, got '" + value + "'");
    }
    return value.equals("true");
  }

  /** A proxy in front of the config's source database if the options ask for it, else none. */
  public static PipelineProxies forSource(PipelineConfig config) {
    if (!requested(config)) {
      return NONE;
    }
    return new PipelineProxies(
        TcpProxy.start("source", config.source().host(), config.source().port()), null);
  }

  /** These proxies and {@code brokerProxy} in front of the Kafka broker. */
  public PipelineProxies withBroker(TcpProxy brokerProxy) {
    return new PipelineProxies(source, brokerProxy);
  }

  /**
   * The source as the pipeline's connector reaches it: through the proxy when there is one (the
   * JDBC URL still names the server, for the lab's own sessions).
   */
  public SourceEndpoint connectorSource(SourceEndpoint endpoint) {
    return source != null ? endpoint.through(source.host(), source.port()) : endpoint;
  }

  /** The proxy in front of the source database. */
  public Optional<TcpProxy> source() {
    return Optional.ofNullable(source);
  }

  /** The proxy in front of the Kafka broker. */
  public Optional<TcpProxy> broker() {
    return Optional.ofNullable(broker);
  }

  /** The link capabilities these proxies give the pipeline. */
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>();
    if (source != null) {
      offered.add(SourceNetworkLink.class);
    }
    if (broker != null) {
      offered.add(BrokerNetworkLink.class);
    }
    return Set.copyOf(offered);
  }

  /** Closes the proxies and every connection through them. */
  @Override
  public void close() {
    if (source != null) {
      source.close();
    }
    if (broker != null) {
      broker.close();
    }
  }
}
